import { IncomingMessage } from 'node:http';
import { HttpError } from '../http-error.js';

/**
 * A body of declared length read straight from Node's request: its chunks, joined once (a body that
 * came in one chunk is that chunk). `Request.arrayBuffer()` under @hono/node-server joins the same chunks
 * and then copies the result into a new zero-filled `ArrayBuffer`, a second pass over a 120 KB body.
 * Answers `undefined` when the body was already read from, or when the request has already ended, closed
 * or failed (its `close` will not come again): then the `Request` reads it, as before, with
 * @hono/node-server's own recovery of a body that arrived whole before the client left.
 * A body cut short (the connection closed or failed before its end) is refused as unreadable, as
 * `readAll` refuses it.
 */
export function readNodeBody(
  incoming: IncomingMessage,
  length: number,
): Promise<Buffer> | undefined {
  // Only a Node request whose body nothing has read yet, as bytes (tests may pass a stand-in object).
  if (
    !(incoming instanceof IncomingMessage) ||
    incoming.readableDidRead ||
    incoming.readableEncoding !== null ||
    incoming.readableEnded ||
    incoming.destroyed ||
    incoming.errored !== null
  )
    return undefined;
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.byteLength;
    };
    const done = (): void => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onCut);
      incoming.off('close', onClose);
    };
    const onEnd = (): void => {
      done();
      resolve(
        chunks.length === 1 ? (chunks[0] as Buffer) : joined(chunks, size),
      );
    };
    const onCut = (): void => {
      done();
      reject(new HttpError(400, 'the request body could not be read'));
    };
    // `close` after `end` has nothing left to do. Before it, the body was cut short, unless the whole
    // body had arrived when the client closed: then what is buffered is read out (as @hono/node-server's
    // reader recovers such a body) and taken when it is the declared length.
    const onClose = (): void => {
      if (incoming.readableEnded) return;
      if (incoming.complete) {
        let chunk = incoming.read() as Buffer | null;
        while (chunk !== null) {
          onData(chunk);
          chunk = incoming.read() as Buffer | null;
        }
        if (size === length) return onEnd();
      }
      onCut();
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onCut);
    incoming.on('close', onClose);
  });
}

/** The chunks as one buffer (none: an empty one). */
const joined = (chunks: readonly Buffer[], size: number): Buffer =>
  Buffer.concat(chunks, size);
