// Test helper: real certificates from the openssl CLI, with any validity window. `openssl req -x509` (3.0) only
// takes `-days` from now, so every certificate goes through `openssl ca`, whose -startdate/-enddate set both ends.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '@binnacle/common';

export interface TestCert {
  /** PEM. */
  cert: string;
  key: string;
}

export interface CertSpec {
  cn: string;
  /** Validity in days relative to the factory's `now`: [notBefore, notAfter]. Default [-1, 90]. */
  valid?: [number, number];
  /** openssl syntax: `DNS:a.example`, `IP:10.0.0.1`. */
  sans?: string[];
  ca?: boolean;
  /** Signs the certificate; self-signed without it. */
  issuer?: TestCert;
}

export interface CertFactory {
  /** Whole seconds, so a certificate valid for N days from `now` has exactly N days left at `now`. */
  now: number;
  make(spec: CertSpec): TestCert;
  /** A fresh private key (PEM) that belongs to no certificate. */
  key(): string;
  dispose(): void;
}

const dayMs = 86_400_000;
const caConfig = `[ca]
default_ca = test
[test]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any
unique_subject = no
[any]
commonName = supplied
`;

const opensslDate = (ms: number) => `${new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

export function certFactory(): CertFactory {
  const dir = mkdtempSync(join(tmpdir(), 'binnacle-certs-'));
  const path = (name: string) => join(dir, name);
  const openssl = (args: string[]) => {
    try {
      execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      const stderr = String((error as { stderr?: Buffer }).stderr ?? '');
      throw new Error(`openssl ${args[0]} failed: ${stderr.trim() || String(error)}`);
    }
  };
  writeFileSync(path('ca.cnf'), caConfig);
  writeFileSync(path('index.txt'), '');
  writeFileSync(path('serial'), '1000\n');
  const now = Math.floor(Date.now() / 1000) * 1000;
  const issuers = new Map<TestCert, string>();
  let count = 0;
  const ecKey = ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'];
  const newKey = (name: string) => openssl(['genpkey', ...ecKey, '-out', path(`${name}.key`)]);

  function make(spec: CertSpec): TestCert {
    count += 1;
    const name = `c${count}`;
    const [from, to] = spec.valid ?? [-1, 90];
    const ext = [`basicConstraints = critical,CA:${spec.ca ? 'TRUE' : 'FALSE'}`];
    if (spec.sans?.length) ext.push(`subjectAltName = ${spec.sans.join(',')}`);
    writeFileSync(path(`${name}.ext`), `[v3]\n${ext.join('\n')}\n`);
    newKey(name);
    openssl([
      'req',
      '-new',
      '-key',
      path(`${name}.key`),
      '-subj',
      `/CN=${spec.cn}`,
      '-out',
      path(`${name}.csr`),
    ]);
    const issuer = spec.issuer ? issuers.get(spec.issuer) : undefined;
    const signer = issuer
      ? ['-cert', path(`${issuer}.crt`), '-keyfile', path(`${issuer}.key`)]
      : ['-selfsign', '-keyfile', path(`${name}.key`)];
    openssl([
      'ca',
      '-batch',
      '-notext',
      '-config',
      path('ca.cnf'),
      ...signer,
      '-in',
      path(`${name}.csr`),
      '-out',
      path(`${name}.crt`),
      '-startdate',
      opensslDate(now + from * dayMs),
      '-enddate',
      opensslDate(now + to * dayMs),
      '-extfile',
      path(`${name}.ext`),
      '-extensions',
      'v3',
    ]);
    const made = {
      cert: readFileSync(path(`${name}.crt`), 'utf8'),
      key: readFileSync(path(`${name}.key`), 'utf8'),
    };
    issuers.set(made, name);
    return made;
  }

  function key(): string {
    count += 1;
    newKey(`k${count}`);
    return readFileSync(path(`k${count}.key`), 'utf8');
  }

  return { now, make, key, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** A `kubernetes.io/tls` Secret; string fields are base64-encoded, `raw` ones go in as they are. */
export function tlsSecret(
  name: string,
  fields: { crt?: string; key?: string; ca?: string; raw?: Record<string, unknown> },
  namespace = 'apps',
): KubeObject {
  const data: Record<string, unknown> = { ...fields.raw };
  if (fields.crt !== undefined) data['tls.crt'] = b64(fields.crt);
  if (fields.key !== undefined) data['tls.key'] = b64(fields.key);
  if (fields.ca !== undefined) data['ca.crt'] = b64(fields.ca);
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'kubernetes.io/tls', data };
}
