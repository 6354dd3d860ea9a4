import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));
const docsFolder = path.join(repositoryRoot, 'docs');

/** One Markdown file of the documentation: the README or a guide under docs/. */
export interface MarkdownDocument {
  /** Path from the repository root, with `/` (`docs/skills.md`). */
  readonly file: string;
  readonly text: string;
}

/** The README and every Markdown file directly under docs/ (docs/json holds generated schemas, not prose). */
export function documentationFiles(): MarkdownDocument[] {
  const guides = readdirSync(docsFolder)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...guides].map((file) => ({ file, text: readFileSync(path.join(repositoryRoot, file), 'utf8') }));
}

/** A fenced code block: its info string (`sh runnable`), its body and the line its opening fence is on. */
export interface FencedBlock {
  readonly info: readonly string[];
  readonly body: string;
  readonly line: number;
}

/** Every fenced block of a Markdown text, in order (``` fences; a block left open runs to the end). */
export function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let open: { info: string[]; line: number; lines: string[] } | undefined;
  text.split('\n').forEach((line, index) => {
    if (open === undefined) {
      const fence = /^```(.*)$/.exec(line);
      if (fence !== null) open = { info: fence[1]!.trim().split(/\s+/).filter((word) => word !== ''), line: index + 1, lines: [] };
    } else if (/^```\s*$/.test(line)) {
      blocks.push({ info: open.info, body: open.lines.join('\n'), line: open.line });
      open = undefined;
    } else {
      open.lines.push(line);
    }
  });
  if (open !== undefined) blocks.push({ info: open.info, body: open.lines.join('\n'), line: open.line });
  return blocks;
}

/**
 * The blocks a reader can paste as they are and that need no key and no network: fenced as
 * ```` ```sh runnable ```` (renderers read only the first word, so the marker stays invisible).
 */
export function runnableBlocks(text: string): FencedBlock[] {
  return fencedBlocks(text).filter((block) => block.info[0] === 'sh' && block.info.includes('runnable'));
}

/** The text outside fenced blocks and inline code spans, line for line, so a link in an example is not taken for one. */
function proseOnly(text: string): string[] {
  let inFence = false;
  return text.split('\n').map((line) => {
    if (/^```/.test(line)) {
      inFence = !inFence;
      return '';
    }
    return inFence ? '' : line.replace(/`[^`]*`/g, '');
  });
}

/** A link or image target written in a document, with its line. */
export interface MarkdownLink {
  readonly target: string;
  readonly line: number;
}

/** Every inline link and image target (`[text](target)`, `![alt](target)`) outside code. */
export function markdownLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  proseOnly(text).forEach((line, index) => {
    for (const match of line.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ target: match[1]!, line: index + 1 });
  });
  return links;
}

/**
 * The anchors GitHub gives a document's headings: lower case, inline code marks and punctuation dropped
 * (letters, digits, `-`, `_` and spaces kept), spaces as `-`, and `-1`, `-2`, … after a repeated one.
 */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^```/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const base = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}
