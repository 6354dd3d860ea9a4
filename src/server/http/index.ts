export { bearerTokenMatches, MIN_TOKEN_LENGTH } from './bearer-token.js';
export { hostAllowList, normalizeHost, type HostAllowList } from './host-allow-list.js';
export { listenHttp, type HttpListener, type ListenHttpOptions } from './listen-http.js';
export { isLoopbackAddress, isWildcardAddress } from './loopback-address.js';
export { accessRefusal, type AccessRefusal, type HttpAccessRules } from './request-access.js';
