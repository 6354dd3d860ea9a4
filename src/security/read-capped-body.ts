/** A response body cut at the byte cap. */
export interface CappedBody {
  readonly body: Uint8Array;
  /** True when the stream had more bytes than the cap; the rest was never read. */
  readonly truncated: boolean;
}

/**
 * Reads a body stream up to `maxBytes` and stops there: leaving the loop early destroys the stream, so
 * an endless or huge response costs at most the cap in memory and transfer.
 */
export async function readCappedBody(stream: AsyncIterable<Uint8Array>, maxBytes: number): Promise<CappedBody> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  let truncated = false;
  for await (const chunk of stream) {
    if (received + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - received));
      received = maxBytes;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    received += chunk.length;
  }
  const body = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return { body, truncated };
}
