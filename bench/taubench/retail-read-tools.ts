import { evaluatePythonExpression, pythonFloatOf } from './python-expression-evaluator.js';
import { parsePythonExpression } from './python-expression-parser.js';
import { dumpsPythonJson } from './python-json.js';
import { formatPythonFloat } from './python-number.js';
import { pythonRound } from './python-round.js';
import { comparePythonStrings } from './python-string.js';
import { defineRetailTool, orderIdParameter } from './retail-tool-definition.js';

const calculatorCharacters = '0123456789+-*/(). ';

export const calculate = defineRetailTool({
  name: 'calculate',
  description: 'Calculate the result of a mathematical expression.',
  properties: {
    expression: {
      type: 'string',
      description: "The mathematical expression to calculate, such as '2 + 2'. The expression can contain numbers, operators (+, -, *, /), parentheses, and spaces.",
    },
  },
  writes: false,
  run(_data, { expression }) {
    if (![...expression].every((character) => calculatorCharacters.includes(character))) return 'Error: invalid characters in expression';
    // τ-bench evaluates with Python's `eval`; this is the same language subset, parsed and run by our own code.
    try {
      return formatPythonFloat(pythonRound(pythonFloatOf(evaluatePythonExpression(parsePythonExpression(expression))), 2));
    } catch (error) {
      return `Error: ${error instanceof Error ? error.message : String(error)}`;
    }
  },
});

export const findUserIdByEmail = defineRetailTool({
  name: 'find_user_id_by_email',
  description: 'Find user id by email. If the user is not found, the function will return an error message.',
  properties: {
    email: { type: 'string', description: "The email of the user, such as 'something@example.com'." },
  },
  writes: false,
  run(data, { email }) {
    for (const [userId, profile] of data.users) if (profile.email.toLowerCase() === email.toLowerCase()) return userId;
    return 'Error: user not found';
  },
});

export const findUserIdByNameZip = defineRetailTool({
  name: 'find_user_id_by_name_zip',
  description:
    'Find user id by first name, last name, and zip code. If the user is not found, the function will return an error message. By default, find user id by email, and only call this function if the user is not found by email or cannot remember email.',
  properties: {
    first_name: { type: 'string', description: "The first name of the customer, such as 'John'." },
    last_name: { type: 'string', description: "The last name of the customer, such as 'Doe'." },
    zip: { type: 'string', description: "The zip code of the customer, such as '12345'." },
  },
  writes: false,
  run(data, { first_name, last_name, zip }) {
    for (const [userId, profile] of data.users) {
      if (profile.name.first_name.toLowerCase() === first_name.toLowerCase() && profile.name.last_name.toLowerCase() === last_name.toLowerCase() && profile.address.zip === zip) return userId;
    }
    return 'Error: user not found';
  },
});

export const getOrderDetails = defineRetailTool({
  name: 'get_order_details',
  description: 'Get the status and details of an order.',
  properties: { order_id: orderIdParameter },
  writes: false,
  run(data, { order_id }) {
    const order = data.orders.get(order_id);
    return order === undefined ? 'Error: order not found' : dumpsPythonJson(order);
  },
});

export const getProductDetails = defineRetailTool({
  name: 'get_product_details',
  description: 'Get the inventory details of a product.',
  properties: {
    product_id: { type: 'string', description: "The product id, such as '6086499569'. Be careful the product id is different from the item id." },
  },
  writes: false,
  run(data, { product_id }) {
    const product = data.products.get(product_id);
    return product === undefined ? 'Error: product not found' : dumpsPythonJson(product);
  },
});

export const getUserDetails = defineRetailTool({
  name: 'get_user_details',
  description: 'Get the details of a user.',
  properties: { user_id: { type: 'string', description: "The user id, such as 'sara_doe_496'." } },
  writes: false,
  run(data, { user_id }) {
    const user = data.users.get(user_id);
    return user === undefined ? 'Error: user not found' : dumpsPythonJson(user);
  },
});

export const listAllProductTypes = defineRetailTool({
  name: 'list_all_product_types',
  description:
    'List the name and product id of all product types. Each product type has a variety of different items with unique item ids and options. There are only 50 product types in the store.',
  properties: {},
  writes: false,
  run(data) {
    const idsByName = new Map<string, string>();
    for (const product of data.products.values()) idsByName.set(product.name, product.product_id);
    return dumpsPythonJson(new Map([...idsByName].sort(([a], [b]) => comparePythonStrings(a, b))));
  },
});

export const think = defineRetailTool({
  name: 'think',
  description:
    'Use the tool to think about something. It will not obtain new information or change the database, but just append the thought to the log. Use it when complex reasoning or some cache memory is needed.',
  properties: { thought: { type: 'string', description: 'A thought to think about.' } },
  writes: false,
  run: () => '',
});

export const transferToHumanAgents = defineRetailTool({
  name: 'transfer_to_human_agents',
  description:
    "Transfer the user to a human agent, with a summary of the user's issue. Only transfer if the user explicitly asks for a human agent, or if the user's issue cannot be resolved by the agent with the available tools.",
  properties: { summary: { type: 'string', description: "A summary of the user's issue." } },
  writes: false,
  run: () => 'Transfer successful',
});
