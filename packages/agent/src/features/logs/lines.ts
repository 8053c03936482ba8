import { StringDecoder } from 'node:string_decoder';

export const maxLineBytes = 16 * 1024;

export interface LogLine {
  timestamp?: string;
  line: string;
}

/** `2026-11-22T20:00:00.123456789Z message` as Kubernetes writes lines with `timestamps=true`. */
export function parseTimestamped(text: string): LogLine {
  const space = text.indexOf(' ');
  if (space > 0 && /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(text.slice(0, space))) {
    return { timestamp: text.slice(0, space), line: text.slice(space + 1) };
  }
  return { line: text };
}

/**
 * Cuts a byte stream into lines (UTF-8 safe across chunks). A line longer than 16 KiB is delivered cut, marked
 * with `…`, and the rest of it is dropped, so one runaway line cannot hold a stream's memory.
 */
export class LineSplitter {
  readonly #decoder = new StringDecoder('utf8');
  #buffer = '';
  #skipping = false;

  push(chunk: Buffer, emit: (line: string) => void): void {
    this.#buffer += this.#decoder.write(chunk);
    for (let newline = this.#buffer.indexOf('\n'); newline >= 0; newline = this.#buffer.indexOf('\n')) {
      const line = this.#buffer.slice(0, newline).replace(/\r$/, '');
      this.#buffer = this.#buffer.slice(newline + 1);
      if (this.#skipping) this.#skipping = false;
      else emit(line);
    }
    if (this.#buffer.length > maxLineBytes) {
      if (!this.#skipping) emit(`${this.#buffer.slice(0, maxLineBytes)}…`);
      this.#skipping = true;
      this.#buffer = '';
    }
  }

  /** What is left when the stream ends without a final newline. */
  end(emit: (line: string) => void): void {
    const rest = this.#buffer + this.#decoder.end();
    this.#buffer = '';
    if (rest && !this.#skipping) emit(rest);
  }
}
