import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError } from 'fastify';
import type { ErrorCode } from '../errors.ts';
import { AppError, internal } from './errors.ts';

/** The longest path segment the router accepts: a Kubernetes object name (DNS-1123 subdomain) is at most 253. */
export const maxPathSegment = 253;

/** Our words for the errors fastify itself raises while reading a request; its own bodies carry FST_ codes. */
const known: Record<string, () => AppError> = {
  FST_ERR_BAD_URL: () =>
    new AppError('invalid_request', 'the path is not valid URL encoding (a stray or incomplete %-escape)'),
  FST_ERR_MAX_PARAM_LENGTH: () =>
    new AppError('uri_too_long', `a path segment is longer than ${maxPathSegment} characters`),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new AppError('unsupported_media_type', 'this route does not accept the Content-Type of the body'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new AppError('payload_too_large', 'request body is too large'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new AppError('invalid_request', 'request body is not valid JSON'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    new AppError('invalid_request', 'request body is empty but Content-Type is JSON'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new AppError('invalid_request', 'Content-Length does not match the body'),
};

/** Fastify errors without words of ours keep their status where the catalogue has a code for it. */
const byStatus: Record<number, ErrorCode> = {
  400: 'invalid_request',
  404: 'route_not_found',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
};

/** A fastify error (its code starts with FST_) in our terms; anything else is not fastify's and stays undefined. */
export function fromFramework(error: FastifyError): AppError | undefined {
  if (!error.code?.startsWith('FST_')) return undefined;
  const mapped = known[error.code];
  if (mapped) return mapped();
  const code = byStatus[error.statusCode ?? 500];
  return code ? new AppError(code, error.message) : internal(error);
}

/** A request line of the HTTP form whose method is a token (RFC 9110 §5.6.2) the parser does not know. */
const requestLine = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/\d\.\d\r?$/;

function unknownMethod(error: Error & { code?: string }): boolean {
  // Node hands the bytes it could not parse along with the error.
  const packet = (error as { rawPacket?: unknown }).rawPacket;
  if (error.code !== 'HPE_INVALID_METHOD' || !Buffer.isBuffer(packet)) return false;
  return requestLine.test(packet.subarray(0, 8192).toString('latin1').split('\n')[0] ?? '');
}

/**
 * Node's HTTP parser fails before fastify has a request (malformed request line or header, headers over the
 * limit, a request that never finishes, a method it does not know). Fastify's default answers those without a
 * code; this one answers in our shape, then closes the connection as Node does, since the rest of the stream
 * cannot be trusted. A well-formed request line with a method the parser does not know is 501, not 400.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new AppError('request_timeout', 'the request did not arrive in time')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new AppError('headers_too_large', 'the request headers are too large')
        : unknownMethod(error)
          ? new AppError('method_not_implemented', 'the server does not know this request method')
          : new AppError('invalid_request', 'the request is not valid HTTP');
  const body = JSON.stringify(answer.toBody());
  if (socket.writable) {
    socket.write(
      [
        `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Cache-Control: no-store',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
  socket.destroy(error);
}
