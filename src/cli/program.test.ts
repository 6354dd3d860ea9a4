import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from './program.js';

/** The help a command line prints, parsed by the real command tree without running anything. */
async function helpOf(words: readonly string[]): Promise<string> {
  let out = '';
  const program = buildProgram({ writeOut: (text) => (out += text), writeErr: (text) => (out += text) });
  await expect(program.parseAsync(['node', 'forge', ...words, '--help'])).rejects.toBeInstanceOf(CommanderError);
  return out;
}

describe('noun commands', () => {
  it('answer to the singular and the plural alike', async () => {
    for (const [singular, plural] of [['skill', 'skills'], ['agent', 'agents'], ['tool', 'tools'], ['approval', 'approvals'], ['policy', 'policies'], ['user', 'users'], ['api-key', 'api-keys'], ['account', 'accounts']] as const) {
      const [one, many] = [await helpOf([singular]), await helpOf([plural])];
      expect(one, singular).toMatch(/^Usage: forge (\S+)\|(\S+) \[options\] \[command\]/);
      expect(many, plural).toBe(one);
    }
  });

  it('keep run (the verb) and runs (the noun) apart', async () => {
    expect(await helpOf(['runs', 'list'])).toContain('Usage: forge runs list');
    expect(await helpOf(['run'])).toContain('Usage: forge run [options]');
  });
});
