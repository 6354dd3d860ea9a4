import { LOOKALIKE_CHARACTERS, NAMED_REFERENCES } from './boundary-tag-lookalikes.js';

/**
 * The text as a model might read it, one character per visible unit: escapes decoded, compatibility
 * forms folded, lookalikes mapped to ASCII, case and invisible characters dropped. `starts[i]` and
 * `ends[i]` give the span of the original text that skeleton character `i` came from.
 */
interface Skeleton {
  readonly text: string;
  readonly starts: readonly number[];
  readonly ends: readonly number[];
}

/** Characters that render as nothing or as blank space, so a tag can be split by them and still read as one. */
const invisible = /^[\p{Default_Ignorable_Code_Point}\p{M}\p{Cc}\p{Cf}\p{Z}\s]$/u;

/** An escape a model may decode while reading: an HTML character reference, a JavaScript/JSON escape, a percent escape. */
const escapeAt = /&#[xX]([0-9a-fA-F]{1,6});?|&#([0-9]{1,7});?|&([a-zA-Z]{2,8});?|\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|%([0-9a-fA-F]{2})/iy;

/** Where the boundary tag's opening characters start in a skeleton: `<untrusted…content` or `</untrusted…content`. */
const tagInSkeleton = /<\/?untrusted[^a-z0-9<]{0,3}content/g;

/** Printable ASCII that stands for itself in a skeleton (all but the escape starters `%`, `&`, `\` and the lookalike `0`). */
const plainRun = /[!-$'-/1-[\]-~]+/y;
/** ASCII blanks and controls, which a skeleton drops. */
// eslint-disable-next-line no-control-regex -- control characters are what this pattern is about
const blankRun = /[\u0000-\u0020\u007f]+/y;

/** Decoding rounds: `&amp;lt;` takes two, `&amp;amp;lt;` three; more nesting than this is not read as a tag by anyone. */
const maxDecodingRounds = 4;

/**
 * Defangs everything in `text` that a reader could take for an opening or closing `untrusted-content`
 * tag, near misses included: any case, whitespace or invisible characters (zero-width, soft hyphen,
 * bidi marks, combining marks) inside it, other dashes or none between the words, fullwidth and other
 * lookalike brackets, slashes and letters (Cyrillic, Greek, small capitals), and the brackets or letters
 * written as HTML entities (nested too), `\u003c` escapes or `%3C`. The tag's first character (whatever
 * spelled it) becomes `[`, which no reading turns back into `<`; the rest of the text is unchanged.
 * Idempotent, and never makes the text longer.
 */
export function defangBoundaryTags(text: string): string {
  let current = text;
  // Each round turns at least one `<` into `[`, and `[` ends every escape and reads as nothing else, so no
  // round creates a new `<`: the loop ends. It takes more than one round only when tags overlapped.
  for (;;) {
    const leads = tagLeads(current);
    if (leads.length === 0) return current;
    let defanged = '';
    let position = 0;
    for (const [start, end] of leads) {
      defanged += `${current.slice(position, start)}[`;
      position = end;
    }
    current = defanged + current.slice(position);
  }
}

/** The spans of `text` that spell the `<` of a tag, in order and not overlapping. */
function tagLeads(text: string): Array<readonly [number, number]> {
  let skeleton = skeletonOf(text);
  for (let round = 1; round < maxDecodingRounds; round += 1) {
    const next = skeletonOf(skeleton.text);
    if (next.text === skeleton.text) break;
    skeleton = composed(skeleton, next);
  }
  const leads: Array<readonly [number, number]> = [];
  for (const match of skeleton.text.matchAll(tagInSkeleton)) {
    const start = skeleton.starts[match.index]!;
    const end = skeleton.ends[match.index]!;
    if (leads.length === 0 || start >= leads[leads.length - 1]![1]) leads.push([start, end]);
  }
  return leads;
}

function skeletonOf(text: string): Skeleton {
  let skeleton = '';
  const starts: number[] = [];
  const ends: number[] = [];
  let index = 0;
  while (index < text.length) {
    plainRun.lastIndex = index;
    const plain = plainRun.exec(text)?.[0];
    if (plain !== undefined) {
      for (let position = 0; position < plain.length; position += 1) {
        starts.push(index + position);
        ends.push(index + position + 1);
      }
      skeleton += plain.toLowerCase();
      index += plain.length;
      continue;
    }
    blankRun.lastIndex = index;
    const blank = blankRun.exec(text)?.[0];
    if (blank !== undefined) {
      index += blank.length;
      continue;
    }
    const decoded = escapeSequenceAt(text, index);
    const codePoint = decoded === undefined ? text.codePointAt(index)! : 0;
    const length = decoded?.length ?? (codePoint > 0xffff ? 2 : 1);
    const folded = foldedCharacters(decoded?.character ?? String.fromCodePoint(codePoint));
    for (let position = 0; position < folded.length; position += 1) {
      starts.push(index);
      ends.push(index + length);
    }
    skeleton += folded;
    index += length;
  }
  return { text: skeleton, starts, ends };
}

/** A second skeleton built over the first one's text, with spans that point into the original text. */
function composed(outer: Skeleton, inner: Skeleton): Skeleton {
  return {
    text: inner.text,
    starts: inner.starts.map((start) => outer.starts[start]!),
    ends: inner.ends.map((end) => outer.ends[end - 1]!),
  };
}

function escapeSequenceAt(text: string, index: number): { character: string; length: number } | undefined {
  const first = text[index];
  if (first !== '&' && first !== '\\' && first !== '%') return undefined;
  escapeAt.lastIndex = index;
  const match = escapeAt.exec(text);
  if (match === null) return undefined;
  const [whole, hexReference, decimalReference, name, braced, unicode, hexByte, percent] = match;
  if (name !== undefined) {
    const character = NAMED_REFERENCES.get(name.toLowerCase());
    if (character !== undefined) return { character, length: whole.length };
    // HTML reads `&lt`, `&gt` and `&amp` even when letters follow without a semicolon (`&ltuntrusted`).
    const bare = /^(lt|gt|amp)/i.exec(name)?.[1];
    return bare === undefined ? undefined : { character: NAMED_REFERENCES.get(bare.toLowerCase())!, length: 1 + bare.length };
  }
  const hex = hexReference ?? braced ?? unicode ?? hexByte ?? percent;
  const codePoint = hex === undefined ? Number(decimalReference) : Number.parseInt(hex, 16);
  if (codePoint > 0x10ffff) return undefined;
  return { character: String.fromCodePoint(codePoint), length: whole.length };
}

/** What `unit` (one character, or what an escape stood for) becomes in a skeleton: usually one character, nothing when invisible. */
function foldedCharacters(unit: string): string {
  // Most text is ASCII, which needs no decomposition: letters lower-case, blanks and controls vanish.
  if (unit.length === 1 && unit.charCodeAt(0) < 0x80) {
    const code = unit.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f) return '';
    return LOOKALIKE_CHARACTERS.get(unit) ?? (code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 0x20) : unit);
  }
  let folded = '';
  for (const decomposed of unit.normalize('NFKD')) {
    if (invisible.test(decomposed)) continue;
    for (const lower of decomposed.toLowerCase()) {
      if (invisible.test(lower)) continue;
      folded += LOOKALIKE_CHARACTERS.get(lower) ?? lower;
    }
  }
  return folded;
}
