import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { explainPattern } from '@binnacle/common/server';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

export class InvalidFileError extends Error {}

interface SchemaIssue {
  keyword: string;
  instancePath: string;
  message: string;
  params: Record<string, unknown>;
}

/** Names the first problem of a value against a schema: `field "port" must be <= 65535`. */
export function firstIssue(schema: TSchema, value: unknown): string | undefined {
  const compiled = Compile(schema);
  if (compiled.Check(value)) return undefined;
  const issues = [...compiled.Errors(value)] as SchemaIssue[];
  const extra = issues.find((i) => i.keyword === 'additionalProperties');
  if (extra) {
    const names = extra.params.additionalProperties as string[];
    const path = extra.instancePath.replace(/^\//, '').replaceAll('/', '.');
    return `unknown field "${path ? `${path}.` : ''}${names[0]}"`;
  }
  const issue = issues.find((i) => i.keyword !== 'boolean') ?? issues[0];
  if (!issue) return 'is invalid';
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (issue.keyword === 'pattern') {
    const refused = path
      .split('.')
      .reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], value);
    const explained = explainPattern(issue.params.pattern, refused, `field "${path}"`);
    if (explained) return explained;
  }
  const allowed = issue.keyword === 'enum' ? `: ${(issue.params.allowedValues as unknown[]).join(', ')}` : '';
  return path ? `field "${path}" ${issue.message}${allowed}` : `${issue.message}${allowed}`;
}

/**
 * A JSON document on disk validated by a schema. Writes are atomic (temp file + rename, mode 0600), so a crash
 * never leaves half a file; a missing file reads as the given default.
 */
export class JsonFile<T> {
  readonly path: string;
  readonly #schema: TSchema;
  readonly #fallback: () => T;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string, schema: TSchema, fallback: () => T) {
    this.path = path;
    this.#schema = schema;
    this.#fallback = fallback;
  }

  async read(): Promise<T> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this.#fallback();
      throw error;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new InvalidFileError(`${this.path} is not valid JSON`);
    }
    const issue = firstIssue(this.#schema, value);
    if (issue) throw new InvalidFileError(`${this.path}: ${issue}`);
    return value as T;
  }

  /** Read-modify-write, one at a time, so concurrent updates never lose each other's changes. */
  update(change: (current: T) => T | Promise<T>): Promise<T> {
    const next = this.#queue.then(async () => {
      const value = await change(await this.read());
      await this.write(value);
      return value;
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async write(value: T): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.${Date.now()}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
      await rename(temp, this.path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}
