import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { CertPair } from './pki.ts';

export interface ProbeTls {
  ca?: string;
  client?: CertPair;
}

/** GETs a health endpoint on loopback; resolves with the status code and body. */
export function probe(url: string, tls?: ProbeTls): Promise<{ status: number; body: string }> {
  return new Promise((resolveProbe, reject) => {
    const secure = url.startsWith('https:');
    const options = secure
      ? {
          ca: tls?.ca ? readFileSync(tls.ca) : undefined,
          cert: tls?.client ? readFileSync(tls.client.cert) : undefined,
          key: tls?.client ? readFileSync(tls.client.key) : undefined,
          rejectUnauthorized: Boolean(tls?.ca),
          timeout: 2000,
        }
      : { timeout: 2000 };
    const req = (secure ? httpsRequest : httpRequest)(url, options, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolveProbe({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within 2s`)));
    req.on('error', reject);
    req.end();
  });
}

/** A check for `waitUntil`: true on HTTP 200, otherwise throws with the answer so the wait can report it. */
export function healthy(url: string, tls?: ProbeTls): () => Promise<boolean> {
  return async () => {
    const { status, body } = await probe(url, tls);
    if (status !== 200) throw new Error(`${url} answered ${status}: ${body.slice(0, 200)}`);
    return true;
  };
}
