import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route's answer goes out in the encoding it has (the hub's tunnel relays the agent's bytes). */
    compress?: boolean;
  }
}

/** A content coding the servers send (ADR 0058): brotli first, then gzip, else the bytes as they are. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

/** Answers smaller than this go out as they are: the coding's header and framing would eat the gain. */
export const compressAbove = 1024;

/**
 * The coding to answer a request with, from its Accept-Encoding (RFC 9110 §12.5.3): the acceptable coding with
 * the highest q-value, brotli on a tie; `*` stands for every coding the header does not name; `q=0` refuses.
 * No header, or nothing acceptable, is identity (an answer is always possible uncompressed).
 */
export function negotiateCoding(header: string | string[] | undefined): ContentCoding {
  if (header === undefined) return 'identity';
  const weights = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    // A malformed q reads as a refusal: never send a coding the client may not decode.
    weights.set(name, Number.isFinite(weight) && weight >= 0 && weight <= 1 ? weight : 0);
  }
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gz = Math.max(weightOf('gzip'), weights.get('x-gzip') ?? 0);
  if (br > 0 && br >= gz) return 'br';
  return gz > 0 ? 'gzip' : 'identity';
}

/**
 * Media types worth compressing: JSON, YAML, text and scripts. Never `text/event-stream` (a compressor holds
 * events back until its window fills, ADR 0058), nor archives, images and octet streams (already compressed,
 * or a pod's bytes the caller asked for as they are).
 */
export function compressible(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'text/event-stream') return false;
  return (
    type.startsWith('text/') ||
    /^application\/(?:json|[\w.-]+\+json|javascript|(?:x-)?yaml|xml|x-ndjson)$/.test(type) ||
    type === 'image/svg+xml'
  );
}

/**
 * Low brotli quality: 4 compresses JSON nearly as well as 11 at a small fraction of the CPU. A 256 KiB window
 * (18 bits, not the default 4 MiB): a 4.4 MB pod list compresses as small (336 KB against 349 KB), and each
 * compressor's buffers, allocated in zlib's threads, are a sixteenth the size; the threads' malloc arenas kept
 * the big ones, so an agent serving lists of 10 000 pods held over 100 MB more after them (ADR 0105).
 */
const brotliParams = (sizeHint = 0) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 4,
    [constants.BROTLI_PARAM_LGWIN]: 18,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: sizeHint,
  },
});
const gzipOptions = { level: 6 };
const brotliOnce = promisify(brotliCompress);
const gzipOnce = promisify(gzip);

/** One whole answer compressed off the event loop (zlib's thread pool). */
function compressWhole(body: Buffer, coding: 'br' | 'gzip'): Promise<Buffer> {
  return coding === 'br' ? brotliOnce(body, brotliParams(body.length)) : gzipOnce(body, gzipOptions);
}

/** A streamed answer compressed as it streams: nothing is buffered beyond the compressor's window. */
function compressStream(body: Readable, coding: 'br' | 'gzip'): Transform {
  const compressor = coding === 'br' ? createBrotliCompress(brotliParams()) : createGzip(gzipOptions);
  // Errors travel as destruction: fastify ends the response when its payload stream fails or is destroyed,
  // and a client going away destroys the compressor, which pipeline passes back to the source.
  pipeline(body, compressor).catch(() => undefined);
  return compressor;
}

/** Adds Accept-Encoding to the answer's Vary (caches must keep one copy per coding), keeping what is there. */
function varyOnAcceptEncoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const names = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.some((n) => n === '*' || n.toLowerCase() === 'accept-encoding')) return;
  reply.header('vary', [...names, 'Accept-Encoding'].join(', '));
}

/**
 * The onSend step that compresses answers (ADR 0058): compressible media types over `compressAbove` bytes, in
 * the coding the request accepts. Hijacked answers (SSE) and WebSocket upgrades never get here; answers that
 * already have a Content-Encoding (the UI's precompressed assets) and routes configured `compress: false`
 * go out as they are.
 */
export async function compressAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (request.routeOptions.config.compress === false || request.method === 'HEAD') return payload;
  if (reply.statusCode < 200 || reply.statusCode === 204 || reply.statusCode === 304) return payload;
  if (reply.hasHeader('content-encoding')) return payload;
  if (!compressible(reply.getHeader('content-type') as string | undefined)) return payload;
  varyOnAcceptEncoding(reply);
  const coding = negotiateCoding(request.headers['accept-encoding']);
  if (coding === 'identity') return payload;
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (body.length < compressAbove) return payload;
    reply.header('content-encoding', coding);
    reply.removeHeader('content-length');
    return compressWhole(body, coding);
  }
  if (!(payload instanceof Readable)) return payload;
  const length = Number(reply.getHeader('content-length') ?? Number.NaN);
  if (length < compressAbove) return payload;
  reply.header('content-encoding', coding);
  reply.removeHeader('content-length');
  return compressStream(payload, coding);
}

/** Compresses the app's answers (see compressAnswer); registered once, for every route of the server. */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', compressAnswer);
}
