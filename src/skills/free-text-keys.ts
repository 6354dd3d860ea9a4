/** Argument keys that name a free-text field rather than what the text is about (`query`, `message`). */
export const FREE_TEXT_KEYS: ReadonlySet<string> = new Set(['query', 'q', 'input', 'text', 'prompt', 'search', 'term', 'terms', 'value', 'message', 'content', 'keywords']);
