/** `name`, `id` or `name@3` (a version): how every command, and `forge mcp serve --skill`, names a skill. */
export function parseSkillReference(reference: string): { idOrName: string; version: number | undefined } {
  const match = /^(.+)@(\d+)$/.exec(reference);
  return match === null ? { idOrName: reference, version: undefined } : { idOrName: match[1]!, version: Number(match[2]) };
}
