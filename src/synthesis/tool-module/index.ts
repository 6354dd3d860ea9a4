export { judgeTestRun, type TestVerdict } from './judge-test-run.js';
export { parseToolModule, type ToolModule } from './parse-tool-module.js';
export { runTestAgainstStubs, type StubCheckOptions, type StubCheckResult, type StubRun } from './run-test-against-stubs.js';
export { runToolTest, type ToolTestOptions, type ToolTestResult } from './run-tool-test.js';
export { ToolModuleError } from './tool-module-error.js';
export { toolModuleMetaSchema, type ToolInputSchema, type ToolModuleMeta } from './tool-module-meta.js';
export { toolStubs, type ToolStub, type ToolStubName } from './tool-stubs.js';
