import { describeEveryPage } from './support/web-ui-pages-suite.js';

// At 1280 px every page is scanned in both themes, and in Arabic too (the mirrored layout).
describeEveryPage({ width: 1280, scanned: ({ dark, language }) => language === 'en' || !dark, docs: { 'chat-en-light-1280': 'web-ui-chat.png' } });
