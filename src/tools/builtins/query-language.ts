// Common function words that are not also English words or common names (no 'los' for Los Angeles,
// no 'et' for et al.), so each one is real evidence.
const foreignStopwords = new Set([
  // German
  'und', 'der', 'das', 'dem', 'ein', 'eine', 'einen', 'ist', 'nicht', 'für', 'auf', 'zu', 'wie', 'ich', 'sie', 'wir', 'auch', 'oder', 'beste', 'besten', 'welche', 'warum', 'wann', 'kann', 'über',
  // French
  'le', 'les', 'une', 'pour', 'dans', 'sur', 'avec', 'qui', 'que', 'quoi', 'où', 'pourquoi', 'quel', 'quelle', 'meilleur', 'meilleurs', 'cette', 'sont', 'pas',
  // Spanish and Portuguese
  'por', 'para', 'una', 'qué', 'cómo', 'cuál', 'dónde', 'mejor', 'mejores', 'uma', 'não', 'como', 'onde', 'melhor', 'melhores',
  // Italian
  'il', 'di', 'gli', 'della', 'delle', 'dei', 'sono', 'migliore', 'migliori', 'perché', 'cosa',
  // Dutch and Scandinavian
  'het', 'een', 'niet', 'voor', 'wat', 'och', 'är', 'att', 'för', 'hvad', 'hvordan', 'ikke', 'jeg',
  // Polish and Czech
  'jak', 'nie', 'się', 'czy', 'dla', 'jaki', 'najlepszy', 'jako', 'nebo',
]);

const englishStopwords = new Set([
  'the', 'and', 'of', 'to', 'is', 'are', 'for', 'with', 'what', 'how', 'why', 'when', 'where', 'which', 'who', 'best', 'does', 'can',
  'my', 'your', 'from', 'this', 'that', 'vs', 'near', 'about', 'between', 'should', 'i', 'it', 'be', 'or', 'not', 'at', 'by',
]);

/**
 * A deterministic guess whether a search query is not English, good enough to decide whether a
 * translation call is worth its cost. Signals, in order: mostly non-Latin letters (Cyrillic, CJK,
 * Arabic…); more foreign than English function words; Latin letters with diacritics in a good share
 * of the words and no English function word. Numbers, code and bare names count as English.
 */
export function looksNonEnglish(query: string): boolean {
  const letters = query.match(/\p{L}/gu) ?? [];
  if (letters.length === 0) return false;
  const nonLatin = letters.filter((letter) => !/\p{Script=Latin}/u.test(letter)).length;
  if (nonLatin / letters.length >= 0.2) return true;

  const words = query.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  const english = words.filter((word) => englishStopwords.has(word)).length;
  const foreign = words.filter((word) => foreignStopwords.has(word)).length;
  if (foreign > english) return true;

  const withDiacritics = words.filter((word) => /[^a-z']/.test(word)).length;
  return english === 0 && withDiacritics > 0 && withDiacritics * 3 >= words.length;
}
