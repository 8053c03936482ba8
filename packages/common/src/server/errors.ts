import { type ErrorBody, type ErrorCode, statusOf } from '../errors.ts';

/**
 * The one error type routes and services throw. It carries a stable code (see @binnacle/common errorCodes)
 * whose HTTP status is fixed by the table; the message is shown to the caller as is, so it must not leak
 * internals. Use `internal` for failures whose details belong in the log only.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers, e.g. Retry-After for rate_limited. */
  readonly headers: Record<string, string>;
  /** Structured detail for the log (never sent). */
  readonly detail?: unknown;
  /** Extra fields sent beside error and code (e.g. per-document results of an apply). */
  readonly extra?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      headers?: Record<string, string>;
      detail?: unknown;
      cause?: unknown;
      extra?: Record<string, unknown>;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = statusOf(code);
    this.headers = options.headers ?? {};
    this.detail = options.detail;
    this.extra = options.extra;
  }

  /** The same error with more context in front of the message (the code and status stay). */
  withContext(prefix: string, extra?: Record<string, unknown>): AppError {
    return new AppError(this.code, `${prefix}: ${this.message}`, {
      headers: this.headers,
      detail: this.detail,
      cause: this,
      extra,
    });
  }

  toBody(): ErrorBody & Record<string, unknown> {
    return { ...this.extra, error: this.message, code: this.code };
  }
}

/** The longest piece of a request an error message repeats; a longer one is cut, saying how long it was. */
export const maxEcho = 100;

/**
 * A piece of the request (path, parameter name, value) as an error message may repeat it: bounded, so an
 * answer never reflects kilobytes of input back to the caller or into a log line.
 */
export function echo(input: string): string {
  if (input.length <= maxEcho) return input;
  return `${input.slice(0, maxEcho)}… (${input.length} characters)`;
}

export const badRequest = (message: string) => new AppError('invalid_request', message);
export const notFound = (message: string) => new AppError('not_found', message);
export const unauthenticated = (message: string) => new AppError('unauthenticated', message);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const notReady = (message: string) =>
  new AppError('not_ready', message, { headers: { 'Retry-After': '2' } });

/** A failure whose cause is logged but whose details never reach the caller. */
export function internal(cause: unknown): AppError {
  return new AppError('internal_error', 'internal error; see the server log', { cause });
}
