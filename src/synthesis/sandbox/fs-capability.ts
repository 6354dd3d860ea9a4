import { z } from 'zod';
import { createFileJail, defaultFileJailLimits } from '../../security/index.js';
import { parseCapabilityArguments } from './capability-arguments.js';
import type { CapabilityDefinition } from './capability-definition.js';
import { SandboxSetupError } from './sandbox-setup-error.js';

const pathArgument = z.string();

export const fsCapability: CapabilityDefinition = {
  name: 'fs',
  description:
    "UTF-8 text files in this tool's own folder, which persists between runs. Paths are relative and use '/'; " +
    'absolute paths, ".." segments and symlinks leading outside the folder are refused (FileJailError). ' +
    `A file may hold at most ${defaultFileJailLimits.maxReadBytes} bytes; one run may write ` +
    `${defaultFileJailLimits.maxTotalWriteBytes} bytes in total, each new file or folder counting ${defaultFileJailLimits.bytesPerEntry}. ` +
    `Paths have at most ${defaultFileJailLimits.maxDepth} segments. writeFile creates missing folders.`,
  signature: [
    'forge.fs.readFile(path: string): Promise<string>',
    'forge.fs.writeFile(path: string, text: string): Promise<void>',
    "forge.fs.list(path?: string): Promise<Array<{ name: string; type: 'file' | 'directory' | 'symlink' | 'other' }>>",
  ].join('\n'),
  guestAdapter: `(call) => Object.freeze({
    readFile: (path) => call('readFile', [path]),
    writeFile: (path, text) => call('writeFile', [path, text]).then(() => undefined),
    list: (path) => call('list', [path === undefined ? '.' : path]),
  })`,
  createHostMethods(resources, run) {
    const root = resources.jailRoot;
    if (root === undefined) {
      throw new SandboxSetupError('The "fs" capability was granted but no folder was supplied (hostCapabilities.jailRoot).');
    }
    // One jail per run, so the write quota is per run, and it stops working when the run ends.
    const jail = createFileJail(root, {}, { signal: run.signal });
    return {
      readFile: (callArguments) => jail.readFile(parseCapabilityArguments(z.tuple([pathArgument]), callArguments, 'forge.fs.readFile')[0]),
      async writeFile(callArguments) {
        const [path, text] = parseCapabilityArguments(z.tuple([pathArgument, z.string()]), callArguments, 'forge.fs.writeFile');
        await jail.writeFile(path, text);
        return null;
      },
      async list(callArguments) {
        const entries = await jail.list(parseCapabilityArguments(z.tuple([pathArgument]), callArguments, 'forge.fs.list')[0]);
        return entries.map((entry) => ({ name: entry.name, type: entry.type }));
      },
    };
  },
};
