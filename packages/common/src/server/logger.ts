import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Paths a secret could reach a log line through (DESIGN §4.8): credentials in request headers (the caller's
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

/** The structured log of `binnacle agent` and `binnacle hub`: JSON lines (stderr by default), secrets redacted. */
export function serverLogger(level: string, destination: DestinationStream = pino.destination(2)): Logger {
  return pino({ level, redact: { paths: redactedPaths, censor: '[redacted]' } }, destination);
}
