import { ForgeError } from '../core/index.js';

/** A customer's inputs that do not fit a product's form. Names only the form's fields. */
export class MarketplaceInputError extends ForgeError {
  constructor(message: string, hint: string) {
    super({ name: 'MarketplaceInputError', message, hint });
  }
}

/** A marketplace act the caller may not do (package someone else's skill, change someone else's product). */
export class MarketplacePermissionError extends ForgeError {
  constructor(message: string, hint: string) {
    super({ name: 'MarketplacePermissionError', message, hint });
  }
}

/** A product whose customer answer would not come from the skill's declared outputs or answer template. Names the fix. */
export class ProductOutputError extends ForgeError {
  constructor(message: string, hint: string) {
    super({ name: 'ProductOutputError', message, hint });
  }
}
