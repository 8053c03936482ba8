/**
 * Exact-length reads over a stream of chunks, without gathering more than one tar block: headers are read
 * whole, file contents are passed through chunk by chunk or skipped, so a layer never sits in memory. At most
 * `maxBytes` are taken from the source; the chunk that passes it is an error.
 */
export class ByteReader {
  readonly #chunks: AsyncIterator<Buffer>;
  readonly #maxBytes: number;
  #taken = 0;
  #buffer: Buffer = Buffer.alloc(0);

  constructor(source: AsyncIterable<Buffer>, maxBytes = Number.POSITIVE_INFINITY) {
    this.#chunks = source[Symbol.asyncIterator]();
    this.#maxBytes = maxBytes;
  }

  async #next(): Promise<Buffer | undefined> {
    const next = await this.#chunks.next();
    if (next.done) return undefined;
    this.#taken += next.value.length;
    if (this.#taken > this.#maxBytes)
      throw new Error(`the archive is larger than ${(this.#maxBytes / 1024 / 1024).toFixed(0)} MiB`);
    return next.value;
  }

  async #pull(): Promise<boolean> {
    const next = await this.#next();
    if (!next) return false;
    this.#buffer = this.#buffer.length ? Buffer.concat([this.#buffer, next]) : next;
    return true;
  }

  /** Exactly `length` bytes; undefined at the end of the stream; an error when it ends part-way. */
  async read(length: number): Promise<Buffer | undefined> {
    while (this.#buffer.length < length) {
      if (!(await this.#pull())) {
        if (this.#buffer.length === 0) return undefined;
        throw new Error(
          `the archive ends in the middle of a record (${this.#buffer.length} of ${length} bytes)`,
        );
      }
    }
    const out = this.#buffer.subarray(0, length);
    this.#buffer = this.#buffer.subarray(length);
    return out;
  }

  /** The next `length` bytes as the chunks they arrive in. */
  async *chunks(length: number): AsyncGenerator<Buffer> {
    let left = length;
    while (left > 0) {
      if (this.#buffer.length === 0 && !(await this.#pull()))
        throw new Error(`the archive ends ${left} bytes before the end of a file`);
      const take = Math.min(left, this.#buffer.length);
      const out = this.#buffer.subarray(0, take);
      this.#buffer = this.#buffer.subarray(take);
      left -= take;
      yield out;
    }
  }

  /** Drops the next `length` bytes, chunk by chunk as they arrive (no generator per chunk: skipping is most of the work). */
  async skip(length: number): Promise<void> {
    let left = length;
    const buffered = Math.min(left, this.#buffer.length);
    this.#buffer = this.#buffer.subarray(buffered);
    left -= buffered;
    while (left > 0) {
      const next = await this.#next();
      if (!next) throw new Error(`the archive ends ${left} bytes before the end of a file`);
      if (next.length > left) this.#buffer = next.subarray(left);
      left -= Math.min(left, next.length);
    }
  }

  /** Stops reading the source (closes the stream behind it). */
  async close(): Promise<void> {
    await this.#chunks.return?.();
  }
}
