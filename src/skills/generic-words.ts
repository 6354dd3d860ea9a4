/**
 * Words that say what kind of task it is rather than what it is about: stop words and the vocabulary
 * of looking things up. A span of a task made only of these is never a variable, so "latest release"
 * stays part of the recipe while "lumen" becomes `{{topic}}`.
 */
const GENERIC_WORDS = new Set(
  `a an the of for to in on at by with about from into and or but is are was be it its this that these those what which who how
  me my our your please can could would i we you
  latest newest current recent new last release releases released version versions notes changelog changes changed
  doc docs documentation official page pages site website web online info information details news update updates
  search find look lookup up read open get fetch show tell give choose pick select summarize summarise summary explain
  then also and it them their there here out`.split(/\s+/).filter((word) => word !== ''),
);

export function isGenericWord(word: string): boolean {
  return GENERIC_WORDS.has(word.toLowerCase());
}

/** A word of a text with where it sits. */
export interface TextWord {
  readonly text: string;
  readonly lower: string;
  readonly start: number;
  readonly end: number;
}

/** Words: letters and digits, joined by `.`, `'`, `+` or `-` inside a word (`node.js`, `c-102`). */
export function wordsOf(text: string): TextWord[] {
  return [...text.matchAll(/[\p{L}\p{N}]+(?:[.'+-][\p{L}\p{N}]+)*/gu)].map((match) => ({
    text: match[0],
    lower: match[0].toLowerCase(),
    start: match.index,
    end: match.index + match[0].length,
  }));
}
