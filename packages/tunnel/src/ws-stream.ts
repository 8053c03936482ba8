import type { Duplex } from 'node:stream';
import { createWebSocketStream, type WebSocket } from 'ws';

/** Bytes handed to the WebSocket and not yet on the wire beyond which writers wait (backpressure). */
const maxBufferedBytes = 1024 * 1024;

type WriteCallback = (error?: Error | null) => void;

/**
 * The WebSocket as the byte stream HTTP/2 runs over, with every write of one turn of the event loop sent
 * as one binary message. HTTP/2 writes a few small frames per request (HEADERS, DATA, WINDOW_UPDATE);
 * as one message each, they cost a frame and a `writev` system call apiece, which was the largest share
 * of the hub's CPU under load (ADR 0043). Writes are acknowledged at once while little is buffered, so
 * the next ones join the batch; past `maxBufferedBytes` the writer waits until the batch is sent.
 */
export function webSocketStream(ws: WebSocket): Duplex {
  const duplex = createWebSocketStream(ws);
  const send = duplex._write.bind(duplex);
  const final = duplex._final.bind(duplex);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let waiting: WriteCallback[] = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const data = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending, pendingBytes);
    const callbacks = waiting;
    pending = [];
    pendingBytes = 0;
    waiting = [];
    send(data, 'binary', (error?: Error | null) => {
      for (const callback of callbacks) callback(error);
    });
  };

  duplex._write = (chunk: Buffer, _encoding: BufferEncoding, callback: WriteCallback) => {
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
    if (ws.bufferedAmount + pendingBytes < maxBufferedBytes) callback();
    else waiting.push(callback);
  };
  // Ending sends what is batched before the close frame.
  duplex._final = (callback: WriteCallback) => {
    flush();
    final(callback);
  };
  return duplex;
}
