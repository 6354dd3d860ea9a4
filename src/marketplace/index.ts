export { MarketplaceService, customerResult, productOutputProblem, productRequestSchema, type MarketplaceServiceParts, type ProductContract, type ProductRequest } from './marketplace-service.js';
export { MarketplaceInputError, MarketplacePermissionError, ProductOutputError } from './marketplace-errors.js';
export { checkFormInputs, productForm, type ProductForm, type ProductFormField } from './product-form.js';
