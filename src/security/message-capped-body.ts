import { NetworkError } from '../core/index.js';

/**
 * A body that fails (with `NetworkError`) once one message passes `maxMessageBytes`, cancelling the
 * rest of the download. For an ordinary response the message is the whole body. For an event stream
 * (`text/event-stream`) it is one event: the count restarts at every blank line that ends an event,
 * so a stream may stay open and carry any number of events, as long as no single event is too large.
 */
export function messageCappedBody(body: ReadableStream<Uint8Array>, options: { maxMessageBytes: number; eventStream: boolean; shownUrl: string }): ReadableStream<Uint8Array> {
  const { maxMessageBytes, eventStream, shownUrl } = options;
  const tooLarge = () =>
    new NetworkError(
      shownUrl,
      eventStream
        ? `one event of the stream passed ${maxMessageBytes} bytes, the cap on one message`
        : `the response passed ${maxMessageBytes} bytes, the cap on one message`,
    );
  let messageBytes = 0;
  // Event streams: whether the next byte starts a line, and whether the last byte was a CR (a CRLF
  // pair ends one line, not two).
  let atLineStart = true;
  let afterCarriageReturn = false;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (!eventStream) {
          messageBytes += chunk.length;
          if (messageBytes > maxMessageBytes) controller.error(tooLarge());
          else controller.enqueue(chunk);
          return;
        }
        for (const byte of chunk) {
          if (byte === 0x0a && afterCarriageReturn) {
            afterCarriageReturn = false;
            continue;
          }
          afterCarriageReturn = byte === 0x0d;
          if (byte === 0x0a || byte === 0x0d) {
            // A line break at the start of a line is the blank line that ends an event.
            if (atLineStart) messageBytes = 0;
            atLineStart = true;
            continue;
          }
          atLineStart = false;
          if (++messageBytes > maxMessageBytes) {
            controller.error(tooLarge());
            return;
          }
        }
        controller.enqueue(chunk);
      },
    }),
  );
}
