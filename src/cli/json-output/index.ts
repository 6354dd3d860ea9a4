export { commandOutputs } from './command-outputs.js';
export { FALLBACK_HINT, errorDocument, errorOutputSchema, type ErrorOutput } from './error-output.js';
export { figurePrecision, presentJson } from './json-presenter.js';
export { jsonSchemaDocuments, schemaFileName } from './json-schema-documents.js';
