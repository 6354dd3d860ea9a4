import { describeEveryPage } from './support/web-ui-pages-suite.js';

// At 390 px (a phone) every page is scanned in both themes in English.
describeEveryPage({ width: 390, scanned: ({ language }) => language === 'en', docs: { 'skill-ar-dark-390': 'web-ui-skill-arabic-dark.png' } });
