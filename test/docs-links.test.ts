import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationFiles, headingAnchors, markdownLinks, repositoryRoot } from './support/markdown-docs.js';

const documents = documentationFiles();
const anchorsByFile = new Map(documents.map((document) => [document.file, headingAnchors(document.text)]));

/** Why a relative link does not resolve, or undefined when it does (a file or folder, and its heading when it names one). */
function brokenBecause(from: string, target: string): string | undefined {
  const [pathPart = '', fragment] = target.split('#', 2);
  const file = pathPart === '' ? from : path.posix.normalize(path.posix.join(path.posix.dirname(from), decodeURIComponent(pathPart)));
  if (file.startsWith('..')) return 'leaves the repository';
  if (!existsSync(path.join(repositoryRoot, file))) return `no file ${file}`;
  if (fragment === undefined || !file.endsWith('.md')) return undefined;
  const anchors = anchorsByFile.get(file) ?? headingAnchors(readFileSync(path.join(repositoryRoot, file), 'utf8'));
  return anchors.has(fragment) ? undefined : `${file} has no heading #${fragment}`;
}

describe('the documentation', () => {
  it('has a landing README under 25 KB and the guides by task', () => {
    const readme = documents.find((document) => document.file === 'README.md')!;
    expect(Buffer.byteLength(readme.text)).toBeLessThan(25_000);
    const guides = ['getting-started', 'running-agents', 'skills', 'toolbox', 'tools', 'mcp', 'agent-definitions', 'policy-and-approvals', 'server-and-api', 'web-ui', 'scaling-out', 'security', 'configuration', 'library', 'troubleshooting'];
    for (const guide of guides) expect(anchorsByFile.has(`docs/${guide}.md`), `docs/${guide}.md`).toBe(true);
  });

  it('resolves every relative link in the README and docs/, headings included', () => {
    const broken: string[] = [];
    for (const document of documents) {
      for (const link of markdownLinks(document.text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) continue;
        const reason = brokenBecause(document.file, link.target);
        if (reason !== undefined) broken.push(`${document.file}:${link.line}: ${link.target} (${reason})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('lists every guide in the index, docs/README.md', () => {
    const index = documents.find((document) => document.file === 'docs/README.md')!;
    const linked = new Set(markdownLinks(index.text).map((link) => link.target.split('#')[0]));
    const unlisted = documents.filter((document) => document.file.startsWith('docs/') && document.file !== 'docs/README.md').map((document) => path.posix.basename(document.file)).filter((name) => !linked.has(name));
    expect(unlisted).toEqual([]);
  });

  it('catches a broken link: a missing file, a missing heading, a link out of the repository', () => {
    expect(brokenBecause('docs/README.md', 'no-such-guide.md')).toBe('no file docs/no-such-guide.md');
    expect(brokenBecause('docs/README.md', 'skills.md#no-such-heading')).toBe('docs/skills.md has no heading #no-such-heading');
    expect(brokenBecause('README.md', '../outside.md')).toBe('leaves the repository');
    expect(brokenBecause('docs/README.md', 'running-agents.md#one-loop-checkpoints-and-forge-run---resume')).toBeUndefined();
    expect(markdownLinks('`[not](a-link.md)` and\n```\n[nor](this.md)\n```\n[a link](here.md)')).toEqual([{ target: 'here.md', line: 5 }]);
  });
});
