export { createSynthesizedTool, type SynthesizedToolOptions } from './synthesized-tool.js';
export { Toolbox, toolboxFolder } from './toolbox.js';
export type { ToolboxMirror } from './toolbox-mirror.js';
export { toolboxEntrySchema, type ToolboxEntry, type ToolboxStatus } from './toolbox-entry.js';
export { ToolboxManifestError, ToolboxMirrorError, ToolVerificationError } from './toolbox-errors.js';
export { TOOLBOX_MANIFEST_VERSION, emptyManifest, parseToolboxManifest, toolboxManifestSchema, type ToolboxManifest } from './toolbox-manifest.js';
export { describeVerificationFailure, verifyTool, type ToolVerification, type VerifyToolOptions } from './verify-tool.js';
export { registerPromotedTool, registerPromotedTools } from './register-promoted-tools.js';
export { addVerifiedTool, type AddVerifiedToolOptions } from './add-verified-tool.js';
