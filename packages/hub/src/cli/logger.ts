import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Paths a secret could reach a log line through (DESIGN §4.8): credentials in request headers, cookies being
 * set, and any field named like a secret. The redaction is belt and braces; the code never logs them.
 */
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.refresh_token',
  '*.id_token',
  '*.client_secret',
];

export function hubLogger(level: string, destination: DestinationStream = pino.destination(2)): Logger {
  return pino({ level, redact: { paths: redactedPaths, censor: '[redacted]' } }, destination);
}
