export { defaultWebRoot, WEB_CONTENT_SECURITY_POLICY, WebApp } from './web-app.js';
