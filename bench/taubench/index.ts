export { retailDataHash } from './data-hash.js';
export { PythonError, type PythonNumber } from './python-number.js';
export { pythonRound } from './python-round.js';
export {
  loadRetailData,
  type RetailAddress,
  type RetailData,
  type RetailOrder,
  type RetailOrderItem,
  type RetailPayment,
  type RetailPaymentMethod,
  type RetailProduct,
  type RetailUser,
  type RetailVariant,
} from './retail-data.js';
export { startRetailMcpServer, type RetailMcpServer, type RetailMcpServerOptions, type RetailToolCall } from './retail-mcp-server.js';
export { groupTasksBySequence, loadRetailTasks, type RetailAction, type RetailTask, type RetailTaskGroup } from './retail-tasks.js';
export type { RetailParameterSchema, RetailToolDefinition, RetailToolParameters } from './retail-tool-definition.js';
export { RETAIL_TOOLS, invokeRetailTool } from './retail-tools.js';
