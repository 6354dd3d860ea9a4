export { API_REFERENCE_PATH, ApiReference } from './api-reference.js';
export { defaultWebRoot, WEB_CONTENT_SECURITY_POLICY, WebApp } from './web-app.js';
