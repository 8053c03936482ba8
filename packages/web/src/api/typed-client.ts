import { ApiError } from './errors.ts';

type Method = 'post' | 'put' | 'patch' | 'delete';
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;

/** The paths of a document that answer 200 to GET. */
export type GetPaths<Paths> = {
  [P in keyof Paths]: Paths[P] extends { get: { responses: { 200: unknown } } } ? P : never;
}[keyof Paths];

/** The 200 answer of a GET route, as its server's OpenAPI document declares it. */
export type AnswerOf<Paths, P extends keyof Paths> = Paths[P] extends { get: { responses: { 200: infer R } } }
  ? JsonOf<R>
  : never;

/** The paths with a 200, 201 or 204 answer for a method. */
export type PathsWith<Paths, M extends Method> = {
  [P in keyof Paths]: Paths[P] extends {
    [K in M]: { responses: { 200: unknown } | { 201: unknown } | { 204: unknown } };
  }
    ? P
    : never;
}[keyof Paths];

type Success<R> = R extends { 200: infer A }
  ? JsonOf<A>
  : R extends { 201: infer C }
    ? JsonOf<C>
    : R extends { 204: unknown }
      ? undefined
      : never;

/** The success answer of a route for a method other than GET (nothing for a 204). */
export type SendAnswerOf<Paths, M extends Method, P extends keyof Paths> = Paths[P] extends {
  [K in M]: { responses: infer R };
}
  ? Success<R>
  : never;

export type Query = Record<string, string | number | undefined>;

/** The body a route takes for a method, as its document declares it (JSON, or YAML text); none when it takes none. */
export type BodyOf<Paths, M extends Method, P extends keyof Paths> = Paths[P] extends {
  [K in M]: { requestBody?: { content: infer C } };
}
  ? C[keyof C]
  : never;

export interface SendOptions<B = unknown> {
  params?: Record<string, string>;
  query?: Query;
  /** JSON-encoded, unless it is text (YAML), which is sent as `application/yaml`. */
  body?: B;
}

/** A response's JSON body, or an ApiError carrying the server's `{error, code}` when it is not a success. */
export async function answer<T>(res: Response): Promise<T> {
  const text = await res.text();
  const body = text ? (JSON.parse(text) as unknown) : undefined;
  if (!res.ok) {
    const error = (body ?? {}) as { error?: string; code?: string };
    const retryAfter = Number.parseInt(res.headers.get('retry-after') ?? '', 10);
    throw new ApiError(
      res.status,
      error.code ?? 'http_error',
      error.error ?? `HTTP ${res.status}`,
      error as Record<string, unknown>,
      Number.isNaN(retryAfter) ? undefined : retryAfter,
    );
  }
  return body as T;
}

/** Puts path parameters into a route's template: `/api/resources/{kind}` + `{kind: 'pods'}`. */
export function fill(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/**
 * Calls to one server's routes, typed by its OpenAPI document (`Paths` as openapi-typescript writes it), at
 * URLs that `url` resolves: an agent's routes under the page's base, the hub's at its root.
 */
export function typedClient<Paths>(url: (path: string, query?: Query) => string) {
  const send = async <M extends Method, P extends PathsWith<Paths, M>>(
    method: M,
    path: P,
    options: SendOptions<BodyOf<Paths, M, P>>,
  ): Promise<SendAnswerOf<Paths, M, P>> => {
    const init: RequestInit = { method: method.toUpperCase(), credentials: 'same-origin' };
    if (typeof options.body === 'string') {
      init.headers = { 'content-type': 'application/yaml' };
      init.body = options.body;
    } else if (options.body !== undefined) {
      init.headers = { 'content-type': 'application/json' };
      init.body = JSON.stringify(options.body);
    }
    return answer(await fetch(url(fill(String(path), options.params), options.query), init));
  };
  return {
    /** GET a route: `get('/api/resources/{kind}', {params: {kind}, query})`. */
    get: async <P extends GetPaths<Paths>>(
      path: P,
      options: { params?: Record<string, string>; query?: Query; signal?: AbortSignal } = {},
    ): Promise<AnswerOf<Paths, P>> =>
      answer(
        await fetch(url(fill(String(path), options.params), options.query), {
          credentials: 'same-origin',
          signal: options.signal,
        }),
      ),
    /** POST (an action), with a JSON body when one is given. */
    post: <P extends PathsWith<Paths, 'post'>>(
      path: P,
      options: SendOptions<BodyOf<Paths, 'post', P>> = {},
    ) => send('post', path, options),
    /** PUT a YAML or JSON body. */
    put: <P extends PathsWith<Paths, 'put'>>(path: P, options: SendOptions<BodyOf<Paths, 'put', P>> = {}) =>
      send('put', path, options),
    /** PATCH with a JSON body. */
    patch: <P extends PathsWith<Paths, 'patch'>>(
      path: P,
      options: SendOptions<BodyOf<Paths, 'patch', P>> = {},
    ) => send('patch', path, options),
    /** DELETE. */
    remove: <P extends PathsWith<Paths, 'delete'>>(
      path: P,
      options: SendOptions<BodyOf<Paths, 'delete', P>> = {},
    ) => send('delete', path, options),
  };
}
