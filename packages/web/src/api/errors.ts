/** What every failed request answers: `{error, code}` (docs/api/errors.md). */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  /** The whole answer: some errors carry more than `{error, code}` (a drain's report beside drain_incomplete). */
  readonly body: Record<string, unknown>;

  constructor(status: number, code: string, message: string, body: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}
