export { MAX_REVISIONS, synthesizeTool, type SynthesisEnvironment, type SynthesisOutcome } from './synthesize-tool.js';
export { toolRequestSchema, type ToolRequest } from './tool-request.js';
export { SignatureSyntaxError, inputJsonSchemaFromSignature, inputSchemaFromSignature } from './signature-schema.js';
