export { listenHttp, type HttpListener, type ListenHttpOptions } from './listen-http.js';
export { serveWorkerHealth, type WorkerHealth } from './worker-health.js';
