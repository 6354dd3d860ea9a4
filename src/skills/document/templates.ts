const placeholder = /\{\{([a-z][a-z0-9_]*)\}\}/g;

/** The `{{names}}` a template uses, in order of first use. */
export function templateSlots(template: string): string[] {
  return [...new Set([...template.matchAll(placeholder)].map((match) => match[1]!))];
}

/** Fills `{{name}}` placeholders; a name without a value stays as written. */
export function fillTemplate(template: string, values: Readonly<Record<string, unknown>>): string {
  return template.replace(placeholder, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

/**
 * The slot values a template was filled with to give `text` (`{{value_1}} - {{value_2}}` read from
 * `135.24 - 153.23`), or undefined when `text` does not read as the template.
 */
export function readTemplate(template: string, text: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.split(/(\{\{[a-z][a-z0-9_]*\}\})/).map((part) => {
    const name = /^\{\{([a-z][a-z0-9_]*)\}\}$/.exec(part)?.[1];
    if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(name);
    return '(.+?)';
  });
  const match = new RegExp(`^${pattern.join('')}$`, 's').exec(text);
  return match === null ? undefined : Object.fromEntries(names.map((name, index) => [name, match[index + 1]!]));
}
