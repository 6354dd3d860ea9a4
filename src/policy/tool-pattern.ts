const compiled = new Map<string, RegExp>();

/** Whether a rule's tool pattern (a name, or a name with `*` for any run of characters) names `tool`. */
export function toolPatternMatches(pattern: string, tool: string): boolean {
  if (!pattern.includes('*')) return pattern === tool;
  let expression = compiled.get(pattern);
  if (expression === undefined) {
    // The schema allows only letters, digits, _, - and *: nothing else needs escaping.
    expression = new RegExp(`^${pattern.split('*').join('.*')}$`);
    if (compiled.size > 1000) compiled.clear();
    compiled.set(pattern, expression);
  }
  return expression.test(tool);
}
