const placeholder = /\{\{([a-z][a-z0-9_]*)\}\}/g;

/** The `{{names}}` a template uses, in order of first use. */
export function templateSlots(template: string): string[] {
  return [...new Set([...template.matchAll(placeholder)].map((match) => match[1]!))];
}

/** Fills `{{name}}` placeholders; a name without a value stays as written. */
export function fillTemplate(template: string, values: Readonly<Record<string, unknown>>): string {
  return template.replace(placeholder, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}
