/** The lines of a file being read, and what the reading found out when it ended. */
export interface TextLines {
  /**
   * The lines, in batches (those a chunk of the file completes: one await per chunk, not per line), each
   * with its line break ("\n", "\r\n"), the last one without when the file does not end in one.
   */
  readonly lines: AsyncIterable<readonly string[]>;
  /** The file's first chunk holds a NUL byte: it is binary, and no line was yielded. */
  readonly binary: boolean;
  /** The file goes on past `maxBytes`: the lines stop there, and the partial line at the cut is dropped. */
  readonly cut: boolean;
}

/** Decodes a file's chunks as UTF-8 text line by line, reading at most `maxBytes` of it. */
export function textLines(chunks: AsyncIterable<Uint8Array>, maxBytes: number): TextLines {
  const state = { binary: false, cut: false };
  async function* lines(): AsyncGenerator<readonly string[]> {
    const decoder = new TextDecoder('utf-8');
    let pending = '';
    let bytes = 0;
    let first = true;
    for await (const chunk of chunks) {
      if (first && chunk.includes(0)) {
        state.binary = true;
        return;
      }
      first = false;
      if (bytes >= maxBytes) {
        state.cut = true;
        return;
      }
      const taken = chunk.length > maxBytes - bytes ? chunk.subarray(0, maxBytes - bytes) : chunk;
      bytes += taken.length;
      pending += decoder.decode(taken, { stream: true });
      const batch: string[] = [];
      let start = 0;
      for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n', start)) {
        batch.push(pending.slice(start, newline + 1));
        start = newline + 1;
      }
      pending = pending.slice(start);
      if (batch.length > 0) yield batch;
      if (taken.length < chunk.length) {
        state.cut = true;
        return;
      }
    }
    pending += decoder.decode();
    if (pending !== '') yield [pending];
  }
  return {
    lines: lines(),
    get binary() {
      return state.binary;
    },
    get cut() {
      return state.cut;
    },
  };
}

/** A line without its line break. */
export function withoutLineBreak(line: string): string {
  return line.endsWith('\r\n') ? line.slice(0, -2) : line.endsWith('\n') ? line.slice(0, -1) : line;
}
