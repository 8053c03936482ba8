import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import { parse } from 'yaml';
import { repoRoot } from './cluster/paths.ts';

const run = promisify(execFile);
export type Node = Record<string, unknown>;

/** Where Artifact Hub's published OpenAPI document is, or why it cannot be had here. */
export type OpenApiLookup = { path: string } | { missing: string };
let lookup: Promise<OpenApiLookup> | undefined;

/**
 * Looks for Artifact Hub's published OpenAPI document (a pinned version, checked by its sha256, kept in the
 * cache; see test/catalog/openapi.sh) once per process. That it cannot be had (the script's exit status 3) is an
 * answer; any other failure of the script (a copy that does not match, a clone without the tag) is thrown.
 */
export function findArtifactHubOpenApi(): Promise<OpenApiLookup> {
  const script = join(repoRoot, 'test/catalog/openapi.sh');
  lookup ??= run('bash', [script], { maxBuffer: 1 << 20, env: process.env }).then(
    ({ stdout }): OpenApiLookup => ({ path: stdout.trim().split('\n').at(-1) ?? '' }),
    (error: { code?: number; stderr?: string; message: string }): OpenApiLookup => {
      const why =
        error.stderr
          ?.split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
          .join(' ') || error.message;
      if (error.code === 3) return { missing: why };
      throw new Error(`Artifact Hub's OpenAPI document: ${why}`);
    },
  );
  return lookup;
}

/** The path of Artifact Hub's published OpenAPI document; fails with the script's explanation without it. */
export async function artifactHubOpenApi(): Promise<string> {
  const found = await findArtifactHubOpenApi();
  if ('missing' in found) throw new Error(`Artifact Hub's OpenAPI document: ${found.missing}`);
  return found.path;
}

// OpenAPI 3.0 schema keywords that JSON Schema (draft-07, what Ajv checks) does not have; `nullable` is translated.
const notJsonSchema = new Set(['example', 'examples', 'xml', 'externalDocs', 'discriminator', 'deprecated']);
// Keywords whose value is a map of names to schemas (its keys are names, never keywords).
const schemaMaps = new Set(['properties', 'patternProperties', 'definitions']);

/** An OpenAPI 3.0 schema as JSON Schema: `nullable` becomes a null type, refs point into `artifacthub#/definitions`. */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Node = {};
  for (const [key, value] of Object.entries(schema as Node)) {
    if (notJsonSchema.has(key) || key === 'nullable') continue;
    if (key === '$ref' && typeof value === 'string')
      out.$ref = value.replace('#/components/schemas/', 'artifacthub#/definitions/');
    else if (schemaMaps.has(key) && value && typeof value === 'object')
      out[key] = Object.fromEntries(Object.entries(value as Node).map(([k, v]) => [k, toJsonSchema(v)]));
    else out[key] = toJsonSchema(value);
  }
  if ((schema as Node).nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  type?: string;
  itemType?: string;
  validate: ValidateFunction;
}

interface Response {
  /** Content type → the body's validator. */
  content: Map<string, ValidateFunction>;
  headers: { name: string; required: boolean; validate: ValidateFunction }[];
}

export interface Operation {
  id: string;
  method: string;
  path: string;
  pattern: RegExp;
  parameters: Parameter[];
  responses: Map<string, Response>;
}

/** A request or an answer that does not match the document, in words. */
export type Problem = string;

const coerce = (raw: string, type: string | undefined): unknown => {
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  return raw;
};

/** Follows a local `$ref` (`#/components/…`) of an OpenAPI document until it reaches the node itself. */
export function deref(document: Node, node: Node): Node {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
  const target = ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, key) => (at as Node | undefined)?.[key], document);
  return deref(document, (target ?? {}) as Node);
}

/**
 * Checks requests and answers of chosen operations against an OpenAPI 3.0 document: Artifact Hub's published
 * one, or the project's contract of the part the agent uses (catalog-contract.ts). Every problem starts with the
 * document's name.
 */
export class OpenApiDocument {
  readonly name: string;
  readonly operations: Operation[] = [];
  readonly basePath: string;

  private constructor(name: string, document: Node, operationIds: readonly string[]) {
    this.name = name;
    const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
    formats.default(ajv);
    const components = (document.components ?? {}) as Node;
    ajv.addSchema({ $id: 'artifacthub', definitions: toJsonSchema(components.schemas ?? {}) as Node });
    const resolve = (node: Node) => deref(document, node);
    const compile = (schema: unknown) => ajv.compile(toJsonSchema(schema ?? {}) as Node);
    const servers = (document.servers ?? []) as { url: string }[];
    this.basePath = (servers[0]?.url ?? '').replace(/\/$/, '');
    for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Node>)) {
      for (const [method, raw] of Object.entries(item)) {
        const op = raw as Node;
        if (!operationIds.includes(op.operationId as string)) continue;
        const parameters = ((op.parameters ?? []) as Node[]).map((p): Parameter => {
          const param = resolve(p);
          const schema = resolve((param.schema ?? {}) as Node);
          const items = schema.items ? resolve(schema.items as Node) : undefined;
          return {
            name: param.name as string,
            in: param.in as Parameter['in'],
            required: param.required === true,
            type: schema.type as string | undefined,
            itemType: items?.type as string | undefined,
            validate: compile(param.schema),
          };
        });
        const responses = new Map<string, Response>();
        for (const [status, r] of Object.entries((op.responses ?? {}) as Record<string, Node>)) {
          const response = resolve(r);
          const content = new Map<string, ValidateFunction>();
          for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Node>))
            content.set(type, compile(media.schema));
          const headers = Object.entries((response.headers ?? {}) as Record<string, Node>).map(
            ([name, h]) => ({
              name,
              required: resolve(h).required === true,
              validate: compile(resolve(h).schema),
            }),
          );
          responses.set(status, { content, headers });
        }
        const pattern = new RegExp(
          `^${this.basePath}${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, '(?<$1>[^/]+)')}$`,
        );
        this.operations.push({ id: op.operationId as string, method, path, pattern, parameters, responses });
      }
    }
    const missing = operationIds.filter((id) => !this.operations.some((o) => o.id === id));
    if (missing.length > 0) throw new Error(`${name} has no operation ${missing.join(', ')}`);
  }

  /** Reads Artifact Hub's document (YAML or JSON) and compiles the checks of the operations named. */
  static async load(path: string, operationIds: readonly string[]): Promise<OpenApiDocument> {
    return OpenApiDocument.from(
      "Artifact Hub's OpenAPI document",
      parse(await readFile(path, 'utf8')) as Node,
      operationIds,
    );
  }

  /** Compiles the checks of the operations named in a document given as an object. */
  static from(name: string, document: Node, operationIds: readonly string[]): OpenApiDocument {
    return new OpenApiDocument(name, document, operationIds);
  }

  /** The operation of that operationId. */
  operation(id: string): Operation | undefined {
    return this.operations.find((o) => o.id === id);
  }

  /** The operation a request is for, with its path parameters (decoded). */
  match(
    method: string,
    pathname: string,
  ): { operation: Operation; params: Record<string, string> } | undefined {
    for (const operation of this.operations) {
      if (operation.method !== method.toLowerCase()) continue;
      const found = operation.pattern.exec(pathname);
      if (!found) continue;
      const params = Object.fromEntries(
        Object.entries(found.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]),
      );
      return { operation, params };
    }
    return undefined;
  }

  /** What is wrong with a request's path and query parameters (missing, undeclared, of the wrong type). */
  checkRequest(operation: Operation, params: Record<string, string>, query: URLSearchParams): Problem[] {
    const problems: Problem[] = [];
    const declared = new Set(operation.parameters.filter((p) => p.in === 'query').map((p) => p.name));
    for (const name of new Set(query.keys()))
      if (!declared.has(name))
        problems.push(`${this.name}: query parameter ${name} is not in ${operation.id}`);
    for (const p of operation.parameters) {
      if (p.in !== 'path' && p.in !== 'query') continue;
      const raw =
        p.in === 'path'
          ? params[p.name] === undefined
            ? []
            : [params[p.name] as string]
          : query.getAll(p.name);
      if (raw.length === 0) {
        if (p.required)
          problems.push(`${this.name}: ${p.in} parameter ${p.name} of ${operation.id} is required`);
        continue;
      }
      const value =
        p.type === 'array' ? raw.map((v) => coerce(v, p.itemType)) : coerce(raw.at(-1) as string, p.type);
      if (!p.validate(value))
        problems.push(
          `${this.name}: ${p.in} parameter ${p.name}=${raw.join(',')} of ${operation.id}: ${errorsOf(p.validate)}`,
        );
    }
    return problems;
  }

  /**
   * What is wrong with an answer: a status or content type the document does not list, a body off its schema, a
   * header it requires missing or off its schema.
   */
  checkResponse(
    operation: Operation,
    status: number,
    contentType: string | undefined,
    body: string,
    headers: Record<string, string> = {},
  ): Problem[] {
    const where = `${this.name}: ${operation.id} answer ${status}`;
    const response = operation.responses.get(String(status)) ?? operation.responses.get('default');
    if (!response) return [`${where}: the status is not listed`];
    const problems: Problem[] = [];
    const given = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    for (const header of response.headers) {
      const value = given.get(header.name.toLowerCase());
      if (value === undefined) {
        if (header.required) problems.push(`${where}: header ${header.name} is missing`);
      } else if (!header.validate(value))
        problems.push(`${where}: header ${header.name}: ${errorsOf(header.validate)}`);
    }
    if (response.content.size === 0)
      return body === '' ? problems : [...problems, `${where}: no body is listed for this answer`];
    const type = contentType?.split(';')[0]?.trim() ?? '';
    const validate = response.content.get(type);
    if (!validate) return [...problems, `${where}: content type ${type || 'none'} is not listed`];
    let value: unknown = body;
    if (type.endsWith('json')) {
      try {
        value = JSON.parse(body);
      } catch {
        return [...problems, `${where}: the body is not JSON`];
      }
    }
    return validate(value) ? problems : [...problems, `${where}: ${errorsOf(validate)}`];
  }
}

function errorsOf(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword}`)
    .join('; ');
}
