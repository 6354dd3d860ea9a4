import type { RetailData } from './retail-data.js';
import {
  calculate,
  findUserIdByEmail,
  findUserIdByNameZip,
  getOrderDetails,
  getProductDetails,
  getUserDetails,
  listAllProductTypes,
  think,
  transferToHumanAgents,
} from './retail-read-tools.js';
import type { RetailToolDefinition } from './retail-tool-definition.js';
import {
  cancelPendingOrder,
  exchangeDeliveredOrderItems,
  modifyPendingOrderAddress,
  modifyPendingOrderItems,
  modifyPendingOrderPayment,
  modifyUserAddress,
  returnDeliveredOrderItems,
} from './retail-write-tools.js';

/** τ-bench's retail tools, in the order of its `ALL_TOOLS`. */
export const RETAIL_TOOLS: readonly RetailToolDefinition[] = [
  calculate,
  cancelPendingOrder,
  exchangeDeliveredOrderItems,
  findUserIdByEmail,
  findUserIdByNameZip,
  getOrderDetails,
  getProductDetails,
  getUserDetails,
  listAllProductTypes,
  modifyPendingOrderAddress,
  modifyPendingOrderItems,
  modifyPendingOrderPayment,
  modifyUserAddress,
  returnDeliveredOrderItems,
  think,
  transferToHumanAgents,
];

const toolsByName = new Map(RETAIL_TOOLS.map((tool) => [tool.name, tool]));

/**
 * One step of τ-bench's `Env.step` for a tool action: the tool's result string; anything it raises
 * becomes `Error: <message>`; a name that is no tool gives `Unknown action <name>`.
 */
export function invokeRetailTool(data: RetailData, name: string, kwargs: Readonly<Record<string, unknown>>): string {
  const tool = toolsByName.get(name);
  if (tool === undefined) return `Unknown action ${name}`;
  try {
    return tool.invoke(data, kwargs);
  } catch (error) {
    return `Error: ${error instanceof Error ? error.message : String(error)}`;
  }
}
