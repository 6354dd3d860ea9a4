/**
 * Characters a model may read as part of an `<untrusted-content>` tag although they are not the ASCII
 * ones, after Unicode compatibility decomposition (NFKD, which already folds fullwidth, small,
 * mathematical and circled forms) and lower-casing: angle brackets and slashes from other blocks, and the
 * Cyrillic, Greek, Armenian, Lisu and small-capital letters that look like the Latin letters of the
 * tag's name. Only what the tag is made of is listed: the point is to recognise the tag, not all text.
 */
const lookalikes: Readonly<Record<string, string>> = {
  '<': '‹«〈⟨❮❬⧼ᐸ˂≺⋖〈',
  '/': '⁄∕⧸╱⟋\\',
  u: 'υսᴜʋꓴ',
  n: 'ոռпηɴꓠ',
  t: 'тτᴛŧƭꓔ',
  r: 'гᴦʀɾꓣ',
  s: 'ѕꜱʂꓢ',
  e: 'еҽɛεᴇ℮ꓰ',
  d: 'ԁɗᑯđꓓ',
  c: 'сϲᴄꮯꓚ',
  o: 'оοօᴏσø0ꓳ',
};

/**
 * Lookalike character → the ASCII character it passes for, keyed both as written above and in the
 * decomposed lower-case form a reader meets after folding (NFKD turns `ϲ` into `ς`, for one).
 */
export const LOOKALIKE_CHARACTERS: ReadonlyMap<string, string> = new Map(
  Object.entries(lookalikes).flatMap(([ascii, characters]) =>
    [...characters].flatMap((character) => [character, character.normalize('NFKD').toLowerCase()].map((key) => [key, ascii] as const)),
  ),
);

/**
 * Named character references a model may decode while reading (HTML entities), for the characters of
 * the tag and the invisible ones that could be slipped between them. Numeric references (`&#60;`,
 * `&#x3c;`) are decoded for any character. `&lt`, `&gt` and `&amp` are read without their semicolon too,
 * as HTML itself reads them.
 */
export const NAMED_REFERENCES: ReadonlyMap<string, string> = new Map([
  ['lt', '<'],
  ['gt', '>'],
  ['sol', '/'],
  ['bsol', '\\'],
  ['amp', '&'],
  ['hyphen', '-'],
  ['dash', '-'],
  ['minus', '-'],
  ['lowbar', '_'],
  ['nbsp', '\u00a0'],
  ['shy', '\u00ad'],
  ['zwj', '\u200d'],
  ['zwnj', '\u200c'],
  ['lsaquo', '‹'],
  ['laquo', '«'],
  ['lang', '〈'],
]);
