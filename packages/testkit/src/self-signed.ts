import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A self-signed serving certificate (EC P-256, PEM) from the openssl CLI, valid from now for `days`. */
export async function selfSignedCert(options: {
  cn: string;
  /** openssl syntax: `DNS:a.example`, `IP:127.0.0.1`. */
  san: string;
  days: number;
}): Promise<{ cert: string; key: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'binnacle-tls-'));
  try {
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'tls.key'),
      '-out',
      join(dir, 'tls.crt'),
      '-days',
      String(options.days),
      '-subj',
      `/CN=${options.cn}`,
      '-addext',
      `subjectAltName=${options.san}`,
    ]);
    return {
      cert: await readFile(join(dir, 'tls.crt'), 'utf8'),
      key: await readFile(join(dir, 'tls.key'), 'utf8'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
