export { listenHttp, type HttpListener, type ListenHttpOptions } from './listen-http.js';
