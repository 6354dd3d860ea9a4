import { OPERATOR, type Principal } from '../../core/index.js';

/**
 * Who a request acts as: resolves the principal its credentials prove, or undefined when it carries
 * none (or none that hold). It never throws for bad credentials; a route that is not public then
 * answers 401.
 */
export type Authenticator = (request: Request) => Promise<Principal | undefined>;

/**
 * A server without accounts: every request that reached the API (past the listener's Host, Origin and
 * admin-password checks) acts as the operator.
 */
export const operatorAuthenticator: Authenticator = async () => OPERATOR;
