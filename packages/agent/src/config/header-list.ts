import { badRequest } from '@binnacle/common/server';

const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `--metricsdb-headers NAME=VALUE,…` as headers; a value may not hold a comma (set several with several pairs). */
export function parseHeaderList(text: string | undefined, setting: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',').filter((p) => p.trim() !== '')) {
    const at = pair.indexOf('=');
    const name = at < 0 ? pair.trim() : pair.slice(0, at).trim();
    if (at < 1 || !token.test(name)) throw badRequest(`${setting}: "${name || pair}" is not NAME=VALUE`);
    headers[name] = pair.slice(at + 1).trim();
  }
  return headers;
}

export interface ConnectAuth {
  headers?: Record<string, string>;
  bearerToken?: string;
  basicAuth?: { username: string; password: string };
}

/** The headers a store is called with: explicit ones, and Authorization from a bearer token or basic credentials. */
export function authHeaders(auth: ConnectAuth): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(auth.headers ?? {})) {
    if (!token.test(name)) throw badRequest(`headers: "${name}" is not a header name`);
    if (/[\r\n]/.test(value)) throw badRequest(`headers: the value of ${name} holds a line break`);
    headers[name] = value;
  }
  if (auth.bearerToken && auth.basicAuth)
    throw badRequest('bearerToken: give bearerToken or basicAuth, not both');
  if (auth.bearerToken) headers.Authorization = `Bearer ${auth.bearerToken}`;
  if (auth.basicAuth)
    headers.Authorization = `Basic ${Buffer.from(`${auth.basicAuth.username}:${auth.basicAuth.password}`).toString('base64')}`;
  return headers;
}
