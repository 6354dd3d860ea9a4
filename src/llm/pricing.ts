/** Dollars per million tokens. */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
}

/**
 * List prices of the models we know, per million tokens (vendor price pages, 2026). A model that is not
 * here gets `null` cost: tokens are still counted, a dollar figure is never guessed.
 */
const PRICES: Readonly<Record<string, ModelPrice>> = {
  'openai:gpt-5': { inputPerMillion: 1.25, outputPerMillion: 10 },
  'openai:gpt-5-mini': { inputPerMillion: 0.25, outputPerMillion: 2 },
  'openai:gpt-5-nano': { inputPerMillion: 0.05, outputPerMillion: 0.4 },
  'openai:gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8 },
  'openai:gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'openai:gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  'openai:gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10 },
  'openai:gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'openai:o4-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4 },
  'openai:o3': { inputPerMillion: 2, outputPerMillion: 8 },
  'anthropic:claude-opus-4-5': { inputPerMillion: 5, outputPerMillion: 25 },
  'anthropic:claude-opus-4-1': { inputPerMillion: 15, outputPerMillion: 75 },
  'anthropic:claude-sonnet-4-6': { inputPerMillion: 3, outputPerMillion: 15 },
  'anthropic:claude-sonnet-4-5': { inputPerMillion: 3, outputPerMillion: 15 },
  'anthropic:claude-sonnet-4': { inputPerMillion: 3, outputPerMillion: 15 },
  'anthropic:claude-haiku-4-5': { inputPerMillion: 1, outputPerMillion: 5 },
  'anthropic:claude-3-5-haiku': { inputPerMillion: 0.8, outputPerMillion: 4 },
};

/** Self-hosted providers bill no dollars per token. */
const SELF_HOSTED_PROVIDERS = new Set(['ollama', 'local']);

const DATE_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/** The price of a model by slug (`provider:model`), or undefined when unknown. Dated snapshots share their family's price. */
export function priceOf(slug: string): ModelPrice | undefined {
  const provider = slug.slice(0, slug.indexOf(':'));
  if (SELF_HOSTED_PROVIDERS.has(provider)) return { inputPerMillion: 0, outputPerMillion: 0 };
  return PRICES[slug] ?? PRICES[slug.replace(DATE_SUFFIX, '')];
}

/** Dollar cost of one call, or null for a model with no known price. */
export function costOf(slug: string, inputTokens: number, outputTokens: number): number | null {
  const price = priceOf(slug);
  if (price === undefined) return null;
  return (inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) / 1_000_000;
}
