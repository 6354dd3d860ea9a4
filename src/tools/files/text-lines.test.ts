import { describe, expect, it } from 'vitest';
import { textLines, withoutLineBreak } from './text-lines.js';

async function* chunksOf(...parts: Array<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
}

async function collect(file: ReturnType<typeof textLines>): Promise<string[]> {
  const lines: string[] = [];
  for await (const batch of file.lines) lines.push(...batch);
  return lines;
}

describe('textLines', () => {
  it('splits lines across chunks, keeping line breaks and a last line without one', async () => {
    const file = textLines(chunksOf('one\r\ntw', 'o\n', '\nthree'), 1000);
    expect(await collect(file)).toEqual(['one\r\n', 'two\n', '\n', 'three']);
    expect(file.cut).toBe(false);
  });

  it('decodes a character split between two chunks', async () => {
    const euro = Buffer.from('€\n', 'utf8');
    expect(await collect(textLines(chunksOf(euro.subarray(0, 1), euro.subarray(1)), 1000))).toEqual(['€\n']);
  });

  it('stops at maxBytes, dropping the partial line at the cut, and says so', async () => {
    const file = textLines(chunksOf('aaaa\nbbbb\ncccc\n'), 7);
    expect(await collect(file)).toEqual(['aaaa\n']);
    expect(file.cut).toBe(true);
    const exact = textLines(chunksOf('aaaa\n', 'bb\n'), 8);
    expect(await collect(exact)).toEqual(['aaaa\n', 'bb\n']);
    expect(exact.cut).toBe(false);
  });

  it('yields nothing for a binary file and says it is one', async () => {
    const file = textLines(chunksOf(Uint8Array.from([0x50, 0x4b, 0x00, 0x03, 0x0a])), 1000);
    expect(await collect(file)).toEqual([]);
    expect(file.binary).toBe(true);
  });

  it('takes line breaks off', () => {
    expect(['a\r\n', 'b\n', 'c', 'd\r'].map(withoutLineBreak)).toEqual(['a', 'b', 'c', 'd\r']);
  });
});
