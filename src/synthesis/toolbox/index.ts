export { createSynthesizedTool, type SynthesizedToolOptions } from './synthesized-tool.js';
export { Toolbox, toolboxFolder, type ToolboxMirror } from './toolbox.js';
export { toolboxEntrySchema, type ToolboxEntry, type ToolboxStatus } from './toolbox-entry.js';
export { ToolboxManifestError, ToolVerificationError } from './toolbox-errors.js';
export { TOOLBOX_MANIFEST_VERSION, emptyManifest, parseToolboxManifest, toolboxManifestSchema, type ToolboxManifest } from './toolbox-manifest.js';
export { describeVerificationFailure, verifyTool, type ToolVerification, type VerifyToolOptions } from './verify-tool.js';
export { registerPromotedTool, registerPromotedTools } from './register-promoted-tools.js';
export { addVerifiedTool, type AddVerifiedToolOptions } from './add-verified-tool.js';
