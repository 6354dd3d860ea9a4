import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ConfigurationError } from '../../core/index.js';
import type { ConversionAnswer, ConversionRequest, TreeLimits } from './html-conversion-protocol.js';
import { htmlToPlainText } from './html-to-plain-text.js';

export interface PageMarkdown {
  readonly title: string | null;
  readonly markdown: string;
  /** Set when the page's text is returned instead of markdown, saying why (too deep, too large, too slow). */
  readonly fallback?: string;
}

/**
 * The bounds of one conversion. A page deeper or larger than the tree limits is not given to Readability
 * at all; a conversion that takes longer than `timeMs` or needs more than `heapMb` is ended. Either way
 * the page's plain text is returned instead.
 */
export interface HtmlConversionLimits extends TreeLimits {
  readonly timeMs: number;
  /** The worker's heap; a new worker is started for a conversion that asks for a different one. */
  readonly heapMb: number;
}

export const htmlConversionLimits: HtmlConversionLimits = {
  maxDepth: 128,
  maxElements: 50_000,
  timeMs: 10_000,
  heapMb: 256,
};

const workerScript = new URL('./html-conversion-worker.mjs', import.meta.url);
/** An idle converter is kept this long for the next page, so a run reading many pages starts one worker. */
const idleMs = 30_000;

let idle: { readonly worker: Worker; readonly heapMb: number; readonly timer: NodeJS.Timeout } | undefined;

export interface HtmlToMarkdownOptions {
  /** Ends the conversion (and its worker) early; the promise then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Defaults to `htmlConversionLimits` for anything left out. */
  readonly limits?: Partial<HtmlConversionLimits>;
}

/**
 * The main content of an HTML page as markdown (Readability over linkedom, then turndown; see
 * html-conversion-worker.mjs), converted in a worker thread so that no page can stall this thread: the
 * conversion is bounded by the limits, and a page that passes them comes back as its plain text with
 * `fallback` saying why. Rejects with the signal's reason when the signal aborts first (the worker is
 * ended), and with `ConfigurationError` when the build lacks the worker script.
 */
export async function htmlToMarkdown(html: string, pageUrl: string, options: HtmlToMarkdownOptions = {}): Promise<PageMarkdown> {
  const { signal } = options;
  signal?.throwIfAborted();
  const limits = { ...htmlConversionLimits, ...options.limits };
  const answer = await convertInWorker({ html, pageUrl, limits: { maxDepth: limits.maxDepth, maxElements: limits.maxElements } }, limits, signal);
  if (answer.kind === 'converted') return { title: answer.title, markdown: answer.markdown };
  const page = htmlToPlainText(html);
  return { title: page.title, markdown: page.text, fallback: `${fallbackReason(answer, limits)}, so its text is returned without markup.` };
}

type WorkerEnding = ConversionAnswer | { readonly kind: 'timed-out' } | { readonly kind: 'crashed'; readonly message: string };

function fallbackReason(ending: Exclude<WorkerEnding, { kind: 'converted' }>, limits: HtmlConversionLimits): string {
  switch (ending.kind) {
    case 'refused':
      return ending.reason === 'too-deep'
        ? `The page nests elements more than ${limits.maxDepth} deep`
        : `The page has more than ${limits.maxElements.toLocaleString('en-US')} elements`;
    case 'timed-out':
      return `Converting the page took longer than ${limits.timeMs / 1000} s`;
    case 'crashed':
      return `Converting the page failed (${ending.message})`;
    case 'failed':
      return `Converting the page failed (${ending.message})`;
  }
}

function convertInWorker(request: ConversionRequest, limits: HtmlConversionLimits, signal: AbortSignal | undefined): Promise<WorkerEnding> {
  const worker = takeWorker(limits.heapMb);
  return new Promise((resolve, reject) => {
    const end = (ending: { answer: WorkerEnding; reusable: boolean } | { aborted: unknown }) => {
      clearTimeout(deadline);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      signal?.removeEventListener('abort', onAbort);
      if ('aborted' in ending) {
        void worker.terminate();
        reject(ending.aborted);
        return;
      }
      if (ending.reusable) keepIdle(worker, limits.heapMb);
      else void worker.terminate();
      resolve(ending.answer);
    };
    const onMessage = (answer: ConversionAnswer) => end({ answer, reusable: true });
    const onError = (error: Error) => end({ answer: { kind: 'crashed', message: error.message }, reusable: false });
    const onExit = (code: number) => end({ answer: { kind: 'crashed', message: `the converter exited with code ${code}` }, reusable: false });
    const onAbort = () => end({ aborted: signal?.reason });
    const deadline = setTimeout(() => end({ answer: { kind: 'timed-out' }, reusable: false }), limits.timeMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage(request);
  });
}

function takeWorker(heapMb: number): Worker {
  if (idle?.heapMb === heapMb) {
    const { worker, timer } = idle;
    idle = undefined;
    clearTimeout(timer);
    worker.ref();
    return worker;
  }
  if (!existsSync(fileURLToPath(workerScript))) {
    throw new ConfigurationError(
      'read_url',
      `the HTML conversion worker is missing (${fileURLToPath(workerScript)})`,
      'The build must emit the .mjs files of src/tools/builtins/ next to the compiled tools (allowJs in tsconfig.build.json).',
    );
  }
  // Nothing of this process is needed to convert a page: no environment, no inherited flags or loaders.
  return new Worker(workerScript, { env: {}, execArgv: [], resourceLimits: { maxOldGenerationSizeMb: heapMb } });
}

/** Keeps one healthy worker for the next page; it never holds the process open. */
function keepIdle(worker: Worker, heapMb: number): void {
  if (idle !== undefined) {
    void worker.terminate();
    return;
  }
  worker.unref();
  const timer = setTimeout(() => {
    if (idle?.worker !== worker) return;
    idle = undefined;
    void worker.terminate();
  }, idleMs);
  timer.unref();
  idle = { worker, heapMb, timer };
}
