import { ForgeError } from '../core/index.js';

/** Credentials that do not hold: a wrong email or password, a bad, expired or revoked token or key. Says nothing about which. */
export class AuthenticationError extends ForgeError {
  constructor(message = 'The email or password is wrong.', hint = 'Check both and sign in again.') {
    super({ name: 'AuthenticationError', message, hint });
  }
}

/** An account act the caller may not do (sign-up closed, an admin-only act, a key making keys). */
export class AccountPermissionError extends ForgeError {
  constructor(message: string, hint: string) {
    super({ name: 'AccountPermissionError', message, hint });
  }
}
