/** The messages between `html-to-markdown.ts` (host) and `html-conversion-worker.mjs`; plain data only. */

/** How deep and how large a parsed page may be before the worker refuses to hand it to Readability. */
export interface TreeLimits {
  /** Elements nested inside each other, `<html>` counting as 1. */
  readonly maxDepth: number;
  readonly maxElements: number;
}

/** One page to convert. */
export interface ConversionRequest {
  readonly html: string;
  readonly pageUrl: string;
  readonly limits: TreeLimits;
}

/** What the worker answers: markdown, a refusal because the tree passed a limit, or an error it hit. */
export type ConversionAnswer =
  | { readonly kind: 'converted'; readonly title: string | null; readonly markdown: string }
  | { readonly kind: 'refused'; readonly reason: 'too-deep' | 'too-many-elements' }
  | { readonly kind: 'failed'; readonly message: string };
