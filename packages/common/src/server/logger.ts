import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Paths a secret could reach a log line through (docs/architecture.md §4.8): credentials in request headers (the caller's
 * own, the hub's signed identity, the impersonation the agent asserts to the API server), cookies being set,
 * and any field named like a secret. The redaction is belt and braces; the code never logs them.
 */
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-binnacle-identity"]',
  'req.headers["impersonate-user"]',
  'req.headers["impersonate-group"]',
  'req.headers["impersonate-uid"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.refresh_token',
  '*.id_token',
  '*.client_secret',
  '*.clientSecret',
  '*.oidcClientSecret',
  '*.clusterToken',
];

const censor = '[redacted]';

/** Query parameters whose values are credentials: the code and state an IdP sends to a callback, tokens. */
const secretQueryParameters = new Set([
  'code',
  'state',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'id_token_hint',
  'logout_token',
  'client_secret',
  'password',
]);

const decodedName = (name: string) => {
  try {
    return decodeURIComponent(name.replaceAll('+', ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
};

/** A request URL for a log line: the values of credential query parameters censored, the rest kept for debugging. */
export function loggableUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0] as string;
      return secretQueryParameters.has(decodedName(name)) ? `${name}=${censor}` : pair;
    });
  return `${url.slice(0, at)}?${query.join('&')}`;
}

/** The structured log of `binnacle agent` and `binnacle hub`: JSON lines (stderr by default), secrets redacted. */
export function serverLogger(level: string, destination: DestinationStream = pino.destination(2)): Logger {
  return pino(
    {
      level,
      redact: {
        // A logged request's URL (the request log of --debug-events) keeps its path and harmless parameters.
        paths: [...redactedPaths, 'req.url'],
        censor: (value: unknown, path: unknown[]) =>
          path.length === 2 && path[0] === 'req' && path[1] === 'url' && typeof value === 'string'
            ? loggableUrl(value)
            : censor,
      },
    },
    destination,
  );
}
