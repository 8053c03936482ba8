/** What every failed request answers: `{error, code}` (docs/api/errors.md). */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  /** The whole answer: some errors carry more than `{error, code}` (a drain's report beside drain_incomplete). */
  readonly body: Record<string, unknown>;
  /** A 429's Retry-After in seconds: when asking again may succeed (the fleet pages say it, not retry blindly). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    body: Record<string, unknown> = {},
    retryAfterSeconds?: number,
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
