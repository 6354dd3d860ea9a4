export { demoReply } from './demo-script.js';
export { DEMO_BLOG_HOST, DEMO_DOCS_HOST, DEMO_SEARCH_HOST, startDemoSite, type DemoSite } from './demo-site.js';
export { createScriptedModel, type ScriptedReply } from './scripted-model.js';
