/**
 * A small, fixed web about twelve software projects, for the demo and the tests: each project has an
 * official documentation site with its release notes, a release page on a code host, and a crowd of
 * pages that are not what anyone wants (SEO listicles, click-tracking redirects, news rewrites, an
 * unrelated shop that shares the name). One project ("ferro") keeps its old docs beside the new ones
 * on the same site, so its two documentation pages are equally plausible to any deterministic rule.
 */
export interface WorldTopic {
  readonly name: string;
  readonly version: string;
  readonly highlights: readonly string[];
  /** Has a second, equally plausible documentation page (the legacy docs). */
  readonly ambiguous: boolean;
}

const topic = (name: string, version: string, highlights: string[], ambiguous = false): WorldTopic => ({ name, version, highlights, ambiguous });

export const WORLD_TOPICS: readonly WorldTopic[] = [
  topic('lumen', '4.2.0', ['streaming renderer is now the default', 'cold start is 38% faster', 'the legacy plugin API is removed']),
  topic('tessera', '2.9.1', ['tile cache survives restarts', 'fixes a race in the scheduler', 'adds an ARM64 build']),
  topic('kestrel', '1.14.0', ['HTTP/3 support is stable', 'new structured logging', 'drops Node 18']),
  topic('marlin', '7.0.3', ['security fix for path traversal in the static server', 'faster TLS handshakes']),
  topic('juniper', '3.1.0', ['typed configuration files', 'a new migration assistant', 'smaller install size']),
  topic('cobalt', '0.18.2', ['query planner rewrites joins', 'fixes incorrect NULL ordering']),
  topic('nimbus', '5.5.0', ['autoscaling by queue depth', 'per-tenant quotas', 'dashboard redesign']),
  topic('vesper', '2.0.0', ['first stable release', 'plugin system', 'Windows support']),
  topic('quarry', '11.3.4', ['parallel extraction', 'resumable downloads', 'lower memory use on large archives']),
  topic('sable', '6.8.1', ['fixes a memory leak in watch mode', 'better error messages for circular imports']),
  topic('orbit', '9.0.0', ['new async API', 'removes deprecated callbacks', 'OpenTelemetry tracing built in']),
  topic('ferro', '1.6.0', ['incremental builds', 'cross-compilation targets', 'reproducible archives'], true),
];

/** One page of the world, by host and path. */
export interface WorldPage {
  readonly host: string;
  readonly path: string;
  readonly title: string;
  readonly snippet: string;
  readonly html: string;
}

export const WORLD_SEARCH_HOST = 'search.forge-world.dev';
export const WORLD_CODE_HOST = 'github.com';
const LISTICLE_HOST = 'top10-best-dev-tools-2025.com';
const TRACKER_HOST = 'click.adnet-track.net';
const NEWS_HOST = 'devnews-daily.io';

function capitalized(name: string): string {
  return `${name[0]!.toUpperCase()}${name.slice(1)}`;
}

export function docsHost(name: string): string {
  return `docs.${name}.dev`;
}

function shopHost(name: string): string {
  return `${name}-outdoor-gear.shop`;
}

function html(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>
<nav><a href="/">Home</a> · <a href="/docs">Docs</a> · <a href="/blog">Blog</a></nav>
<main><article><h1>${title}</h1>${body}</article></main>
<footer>© ${title.split(' ')[0]} contributors</footer></body></html>`;
}

/** The official release notes of a topic: the page a good agent reads. */
export function officialPath(): string {
  return '/releases/latest';
}

export function officialUrlPath(name: string): { host: string; path: string } {
  return { host: docsHost(name), path: officialPath() };
}

/** Every page of one topic, in the order the search engine ranks them for it (a different mix per topic). */
export function topicPages(entry: WorldTopic, rank: number): WorldPage[] {
  const title = capitalized(entry.name);
  const notes = entry.highlights.map((highlight) => `<li>${highlight}</li>`).join('');
  const pages: WorldPage[] = [
    {
      host: docsHost(entry.name),
      path: officialPath(),
      title: `${title} ${entry.version} release notes | ${title} documentation`,
      snippet: `What is new in ${title} ${entry.version}, the latest release.`,
      html: html(
        `${title} ${entry.version} release notes`,
        `<p>${title} ${entry.version} is the latest release of ${title}.</p><h2>Highlights</h2><ul>${notes}</ul><p>Upgrade with your package manager; see the migration guide for breaking changes.</p>`,
      ),
    },
    {
      host: WORLD_CODE_HOST,
      path: `/forge-world/${entry.name}/releases/tag/v${entry.version}`,
      title: `Release v${entry.version} · forge-world/${entry.name}`,
      snippet: `${entry.highlights.length} changes since the previous tag. Assets: source code (zip), source code (tar.gz).`,
      html: html(`Release v${entry.version} · forge-world/${entry.name}`, `<p>Tag v${entry.version}.</p><ul>${notes}</ul>`),
    },
    {
      host: LISTICLE_HOST,
      path: `/best-${entry.name}-alternatives-top-10`,
      title: `TOP 10 BEST ${title} Alternatives in 2025 (#4 is FREE!)`,
      snippet: `best ${entry.name} alternative free download best ${entry.name} deals 2025 top 10 ranked…`,
      html: html(`TOP 10 BEST ${title} Alternatives`, '<p>Click here for deals! best best best free download.</p>'),
    },
    {
      host: TRACKER_HOST,
      path: `/redirect?url=https://docs.${entry.name}.dev/releases/latest&utm_source=search`,
      title: `${title} latest release — official docs`,
      snippet: `Read the ${title} ${entry.version} release notes.`,
      html: html('Redirecting…', '<p>You are being redirected.</p>'),
    },
    {
      host: NEWS_HOST,
      path: `/${entry.name}-${entry.version.replace(/\./g, '-')}-is-out`,
      title: `${title} ${entry.version} is out: here is what changed`,
      snippet: `Our take on the new ${title} release, with benchmarks.`,
      html: html(`${title} ${entry.version} is out`, `<p>We tried the new ${title}. ${entry.highlights[0]}.</p>`),
    },
    {
      host: shopHost(entry.name),
      path: `/products/${entry.name}-camping-lantern`,
      title: `${title} Camping Lantern, 400 lumens`,
      snippet: `The ${title} lantern: rechargeable, waterproof, free shipping.`,
      html: html(`${title} Camping Lantern`, '<p>Rechargeable lantern for the outdoors.</p>'),
    },
  ];
  if (entry.ambiguous) {
    pages.push({
      host: docsHost(entry.name),
      path: `/legacy${officialPath()}`,
      title: `${title} release notes | ${title} documentation`,
      snippet: `Release notes of ${title}.`,
      html: html(`${title} release notes (legacy docs)`, `<p>The legacy documentation of ${title}, kept for 0.x users.</p>`),
    });
  }
  const shift = rank % pages.length;
  return [...pages.slice(shift), ...pages.slice(0, shift)];
}

/** Every host the world answers for (the search engine included). */
export function worldHosts(): string[] {
  return [...new Set([WORLD_SEARCH_HOST, ...WORLD_TOPICS.flatMap((entry, rank) => topicPages(entry, rank).map((page) => page.host))])];
}

/** The topic a query or task is about: the first topic whose name it mentions as a word. */
export function topicOf(text: string): WorldTopic | undefined {
  const words = new Set(text.toLowerCase().split(/[^a-z0-9]+/));
  return WORLD_TOPICS.find((entry) => words.has(entry.name));
}

/** The task the demo and the tests give the agent for a topic. */
export function worldTask(name: string): string {
  return `Find the latest release of ${name}, choose the official documentation and summarize what changed.`;
}
