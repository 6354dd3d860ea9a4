/** What a stream wrote, up to a limit. */
export interface CappedCapture {
  /** Keeps the chunk as far as the limit allows; counts it whole either way. */
  append(chunk: Buffer): void;
  /** Whether more was written than kept. */
  readonly truncated: boolean;
  /** The kept bytes as UTF-8 text, with a visible marker when some were not kept. */
  text(): string;
}

/**
 * Captures at most `limitBytes` of a stream. Everything past the limit is still read (and counted) but
 * not stored, so the writer never blocks on a full pipe and memory stays bounded.
 */
export function captureCapped(limitBytes: number): CappedCapture {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let totalBytes = 0;
  return {
    append(chunk) {
      totalBytes += chunk.length;
      if (keptBytes >= limitBytes) return;
      const part = chunk.subarray(0, limitBytes - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    },
    get truncated() {
      return totalBytes > keptBytes;
    },
    text() {
      // Streaming decode holds back a character the cut split in two instead of showing U+FFFD.
      const text = new TextDecoder('utf-8').decode(Buffer.concat(kept), { stream: totalBytes > keptBytes });
      return totalBytes > keptBytes ? `${text}\n[truncated by Forge: kept the first ${keptBytes} of ${totalBytes} bytes]` : text;
    },
  };
}
