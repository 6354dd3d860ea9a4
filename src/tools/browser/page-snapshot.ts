/** One node of Playwright's AI-mode accessibility snapshot (`page.ariaSnapshotJSON({ mode: 'ai' })`), as far as the rendering reads it. */
interface AriaNode {
  readonly role: string;
  readonly name?: string;
  readonly ref?: string;
  readonly text?: string;
  readonly url?: string;
  readonly placeholder?: string;
  readonly level?: number;
  readonly cursor?: string;
  readonly flags: readonly string[];
  readonly children: readonly (string | AriaNode)[];
}

/** The page as compact text; `truncated` when lines past the cap were left out. */
export interface PageSnapshot {
  readonly text: string;
  readonly truncated: boolean;
}

/** Roles a person acts on: these lines carry the ref that browser_click and browser_type take. */
const ACTIONABLE_ROLES: ReadonlySet<string> = new Set([
  'button',
  'checkbox',
  'combobox',
  'link',
  'listbox',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'searchbox',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'textbox',
  'treeitem',
]);
/** Regions worth a line of their own, their content indented under it. */
const SECTION_ROLES: ReadonlySet<string> = new Set(['banner', 'navigation', 'main', 'contentinfo', 'complementary', 'form', 'search', 'dialog', 'alertdialog', 'region', 'iframe']);
const STATE_FLAGS = ['checked', 'disabled', 'expanded', 'pressed', 'selected'] as const;
const maxTextChars = 300;
const maxOptions = 10;
const indentStep = '  ';

/**
 * Renders an AI-mode snapshot as compact lines: headings as `#`-marked lines, text as it reads,
 * sections (navigation, main, form…) with their content indented, list items with `-`, table rows as
 * `| a | b |`, and every element one can act on as `[e12] role "name"` with its state, its value, a
 * link's absolute URL (against `pageUrl`). Stops before `maxChars`, on a whole line, and says so.
 */
export function renderSnapshot(snapshot: unknown, pageUrl: string, maxChars: number): PageSnapshot {
  const lines = ariaNodesOf(snapshot).flatMap((node) => renderNode(node, pageUrl));
  const kept: string[] = [];
  let length = 0;
  for (const line of lines) {
    if (length + line.length + 1 > maxChars) {
      kept.push(`[snapshot cut: ${lines.length - kept.length} more lines; browser_extract with a CSS selector reads one part of the page]`);
      return { text: kept.join('\n'), truncated: true };
    }
    kept.push(line);
    length += line.length + 1;
  }
  return { text: kept.join('\n'), truncated: false };
}

function renderNode(node: string | AriaNode, pageUrl: string): string[] {
  if (typeof node === 'string') return textLines(node);
  if (ACTIONABLE_ROLES.has(node.role) || (node.cursor === 'pointer' && node.ref !== undefined)) return [actionableLine(node, pageUrl)];
  const inner = () => [...textLines(node.text ?? ''), ...node.children.flatMap((child) => renderNode(child, pageUrl))];
  switch (node.role) {
    case 'heading':
      return [`${'#'.repeat(Math.min(Math.max(node.level ?? 2, 1), 6))} ${cut(node.name ?? node.text ?? '')}`];
    case 'img':
      return node.name === undefined || node.name === '' ? [] : [`img "${cut(node.name)}"`];
    case 'listitem':
      return bullet(inner());
    case 'row':
      return [`| ${node.children.map((cell) => inline(cell, pageUrl)).join(' | ')} |`];
    default:
      if (SECTION_ROLES.has(node.role)) {
        const content = inner();
        return content.length === 0 ? [] : [`${node.role}${node.name === undefined ? '' : ` "${cut(node.name)}"`}:`, ...content.map((line) => indentStep + line)];
      }
      return node.name !== undefined && node.text === undefined && node.children.length === 0 ? textLines(node.name) : inner();
  }
}

function actionableLine(node: AriaNode, pageUrl: string): string {
  const parts = [`[${node.ref ?? '?'}] ${node.role === 'generic' ? 'clickable' : node.role}`];
  const label = node.name ?? (node.role === 'generic' ? node.text : undefined);
  if (label !== undefined && label !== '') parts.push(`"${cut(label)}"`);
  if (node.flags.length > 0) parts.push(`(${node.flags.join(', ')})`);
  if (node.role !== 'generic' && node.text !== undefined && node.text !== '') parts.push(`= "${cut(node.text)}"`);
  if (node.placeholder !== undefined) parts.push(`placeholder "${cut(node.placeholder)}"`);
  if (node.url !== undefined) parts.push(`→ ${absoluteUrl(node.url, pageUrl)}`);
  const options = node.children.filter((child): child is AriaNode => typeof child !== 'string' && child.role === 'option');
  if (options.length > 0) {
    const listed = options.slice(0, maxOptions).map((option) => `"${cut(option.name ?? '')}"${option.flags.includes('selected') ? ' (selected)' : ''}`);
    parts.push(`options: ${listed.join(', ')}${options.length > maxOptions ? `, … ${options.length - maxOptions} more` : ''}`);
  }
  return parts.join(' ');
}

function inline(node: string | AriaNode, pageUrl: string): string {
  return renderNode(node, pageUrl)
    .map((line) => line.trim())
    .join(' ');
}

function bullet(lines: readonly string[]): string[] {
  const [first, ...rest] = lines;
  return first === undefined ? [] : [`- ${first}`, ...rest.map((line) => indentStep + line)];
}

function textLines(text: string): string[] {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  return trimmed === '' ? [] : [cut(trimmed)];
}

function cut(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxTextChars ? `${flat.slice(0, maxTextChars).trimEnd()}…` : flat;
}

function absoluteUrl(url: string, pageUrl: string): string {
  try {
    return new URL(url, pageUrl).href;
  } catch {
    return url;
  }
}

/** The snapshot's nodes, read defensively: anything that is not a node or a string is skipped. */
function ariaNodesOf(value: unknown): (string | AriaNode)[] {
  const items = Array.isArray(value) ? (value as unknown[]) : [value];
  return items.flatMap((item): (string | AriaNode)[] => {
    if (typeof item === 'string') return [item];
    const node = ariaNodeOf(item);
    return node === undefined ? [] : [node];
  });
}

function ariaNodeOf(value: unknown): AriaNode | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const fields = value as Record<string, unknown>;
  if (typeof fields['role'] !== 'string') return undefined;
  const text = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : undefined);
  const flags = STATE_FLAGS.flatMap((flag) => (fields[flag] === true ? [flag] : fields[flag] === 'mixed' ? [`${flag}: mixed`] : []));
  return {
    role: fields['role'],
    name: text('name'),
    ref: text('ref'),
    text: text('text'),
    url: text('url'),
    placeholder: text('placeholder'),
    cursor: text('cursor'),
    level: typeof fields['level'] === 'number' ? fields['level'] : undefined,
    flags,
    children: fields['children'] === undefined ? [] : ariaNodesOf(fields['children']),
  };
}
