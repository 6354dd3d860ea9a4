import { describeError, type UtilityModel } from '../../core/index.js';
import { looksNonEnglish } from './query-language.js';

/**
 * How the query that was searched relates to the one asked: `translated` (a utility model turned a
 * non-English query into English), `not_needed` (it looked English), `unavailable` (it looked
 * non-English but no utility model is configured) or `failed` (the model call failed or said nothing).
 */
export type TranslationStatus = 'translated' | 'not_needed' | 'unavailable' | 'failed';

export interface QueryTranslation {
  readonly status: TranslationStatus;
  /** What to send to the search provider. */
  readonly searchQuery: string;
  /** The English query when one was produced, else null. */
  readonly translatedQuery: string | null;
  /** Why the original query was searched as written, when it looked non-English. */
  readonly note?: string;
}

const translationSystemPrompt =
  'You turn a web search query written in any language into a concise English web search query with the same meaning. Keep names, product names, versions and numbers as they are. Reply with the English query only: no quotes, no explanation.';

/**
 * Decides whether a query needs translating and, if so, asks the utility model once (bounded output,
 * purpose "query-translation"). Never throws for a model failure: the original query is searched and
 * the note says why. A cancelled run still cancels.
 */
export async function translateQuery(query: string, utilityModel: UtilityModel | undefined, signal: AbortSignal): Promise<QueryTranslation> {
  if (!looksNonEnglish(query)) return { status: 'not_needed', searchQuery: query, translatedQuery: null };
  if (utilityModel === undefined) {
    return {
      status: 'unavailable',
      searchQuery: query,
      translatedQuery: null,
      note: 'The query looks non-English and no utility model is configured to translate it, so it was searched as written.',
    };
  }
  let answer: string;
  try {
    answer = await utilityModel.complete({ system: translationSystemPrompt, prompt: query, maxOutputTokens: 60, purpose: 'query-translation', signal });
  } catch (error) {
    signal.throwIfAborted();
    return { status: 'failed', searchQuery: query, translatedQuery: null, note: `Translating the query failed (${describeError(error).message}); it was searched as written.` };
  }
  const translated = cleanTranslation(answer);
  if (translated === '') {
    return { status: 'failed', searchQuery: query, translatedQuery: null, note: 'The utility model returned no translation; the query was searched as written.' };
  }
  return { status: 'translated', searchQuery: translated, translatedQuery: translated };
}

/** First non-empty line, without wrapping quotes or a leading label, bounded like a search query. */
function cleanTranslation(answer: string): string {
  const line = answer.split('\n').map((candidate) => candidate.trim()).find((candidate) => candidate !== '') ?? '';
  return line
    .replace(/^(english( query)?|query|translation)\s*:\s*/i, '')
    .replace(/^["'`“”‘’«»]+|["'`“”‘’«»]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 400);
}
