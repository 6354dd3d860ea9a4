import { ForgeError } from '../core/index.js';

/** The longest name a skill may have. */
export const MAX_SKILL_NAME_LENGTH = 64;

/**
 * Why `name` cannot name a skill, or undefined when it can. Names are kebab-case: lowercase letters and
 * digits in words joined by single hyphens (`latest-release-notes`), at most 64 characters, so they
 * read the same in a shell, a file name, a URL and an MCP tool name.
 */
export function skillNameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (name.length > MAX_SKILL_NAME_LENGTH) return `it is ${name.length} characters long, more than ${MAX_SKILL_NAME_LENGTH}`;
  if (/\s/.test(name)) return 'it contains whitespace';
  if (/[A-Z]/.test(name)) return 'it contains uppercase letters';
  if (name.includes('@')) return 'it contains "@", which marks a version (name@3)';
  if (/[^a-z0-9-]/.test(name)) return `it contains ${JSON.stringify(name.match(/[^a-z0-9-]/)![0])}; only a-z, 0-9 and "-" are allowed`;
  if (name.startsWith('-') || name.endsWith('-')) return 'it starts or ends with "-"';
  if (name.includes('--')) return 'it contains "--"';
  return undefined;
}

/** A name a skill cannot have; nothing was stored. */
export class SkillNameError extends ForgeError {
  readonly skillName: string;
  readonly problem: string;
  constructor(name: string, problem: string) {
    const suggestion = kebabCase(name);
    super({
      name: 'SkillNameError',
      message: `"${name}" is not a valid skill name: ${problem}. Skill names are kebab-case (lowercase letters and digits joined by "-"). Nothing was stored.`,
      hint: suggestion === '' || suggestion === name ? 'e.g. --name latest-release-notes' : `e.g. ${suggestion}`,
    });
    this.skillName = name;
    this.problem = problem;
  }
}

/** Throws `SkillNameError` when `name` cannot name a skill. */
export function assertSkillName(name: string): void {
  const problem = skillNameProblem(name);
  if (problem !== undefined) throw new SkillNameError(name, problem);
}

function kebabCase(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SKILL_NAME_LENGTH)
    .replace(/-+$/, '');
}
