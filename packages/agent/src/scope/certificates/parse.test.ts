import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CertFactory, certFactory, type TestCert, tlsSecret } from '../../testing/certs.ts';
import { maxChainCertificates, parseTlsSecret } from './parse.ts';
import { daysLeft, severityOf } from './severity.ts';

let factory: CertFactory;
let now: number;
let certs: Record<string, TestCert>;

beforeAll(() => {
  factory = certFactory();
  now = factory.now;
  const make = factory.make;
  const root = make({ cn: 'Test Root', ca: true, valid: [-10, 3650] });
  const intermediate = make({ cn: 'Test Intermediate', ca: true, issuer: root, valid: [-10, 1000] });
  certs = {
    root,
    intermediate,
    chained: make({ cn: 'chained.example', issuer: intermediate, sans: ['DNS:chained.example'] }),
    stale: make({ cn: 'Stale, Intermediate', ca: true, issuer: root, valid: [-100, -2] }),
    ok: make({ cn: 'ok.example' }),
    warning: make({ cn: 'warning.example', valid: [-80, 10] }),
    critical: make({ cn: 'critical.example', valid: [-87, 3] }),
    expired: make({ cn: 'expired.example', valid: [-100, -5] }),
    future: make({ cn: 'future.example', valid: [2, 90] }),
    sans: make({
      cn: 'web.example',
      sans: ['DNS:web.example', 'DNS:*.web.example', 'IP:10.0.0.1', 'IP:::1', 'URI:spiffe://cluster/web'],
    }),
  };
});

afterAll(() => factory.dispose());

const parse = (fields: Parameters<typeof tlsSecret>[1]) => parseTlsSecret(tlsSecret('tls', fields), now);

describe('severity', () => {
  it.each([
    [31, 'ok'],
    [30, 'warning'],
    [8, 'warning'],
    [7, 'critical'],
    [0, 'critical'],
    [-1, 'expired'],
  ] as const)('%i days left is %s', (days, severity) => {
    expect(severityOf(days)).toBe(severity);
  });

  it('counts whole days, negative as soon as notAfter is past', () => {
    expect(daysLeft(now + 86_400_000 - 1, now)).toBe(0);
    expect(daysLeft(now - 1, now)).toBe(-1);
  });
});

describe('parseTlsSecret', () => {
  it('describes a self-signed certificate with its matching key', () => {
    const { cert, key } = certs.ok as TestCert;
    const entry = parse({ crt: cert, key });
    const x509 = new X509Certificate(cert);
    expect(entry).toMatchObject({
      kind: 'Secret',
      namespace: 'apps',
      name: 'tls',
      type: 'kubernetes.io/tls',
      leaf: 0,
      daysLeft: 90,
      notAfter: new Date(now + 90 * 86_400_000).toISOString(),
      chain: { ordered: true, complete: true, problems: [] },
      severity: 'ok',
      problems: [],
    });
    expect(entry.certificates).toEqual([
      {
        subject: 'CN=ok.example',
        commonName: 'ok.example',
        sans: [],
        issuer: 'CN=ok.example',
        serialNumber: x509.serialNumber,
        notBefore: new Date(now - 86_400_000).toISOString(),
        notAfter: new Date(now + 90 * 86_400_000).toISOString(),
        daysLeft: 90,
        isCA: false,
        selfSigned: true,
        fingerprint256: x509.fingerprint256,
      },
    ]);
  });

  it.each([
    ['warning', 10],
    ['critical', 3],
    ['expired', -5],
  ])('rates a certificate %s by its days left', (name, days) => {
    const entry = parse({ crt: certs[name]?.cert });
    expect([entry.severity, entry.daysLeft, entry.problems]).toEqual([name, days, []]);
  });

  it('lists SANs with their kind: DNS, IP (v4 and v6), URI', () => {
    expect(parse({ crt: certs.sans?.cert }).certificates[0]?.sans).toEqual([
      'DNS:web.example',
      'DNS:*.web.example',
      'IP:10.0.0.1',
      'IP:0:0:0:0:0:0:0:1',
      'URI:spiffe://cluster/web',
    ]);
  });

  it('follows a chain listed leaf, intermediate, root', () => {
    const { root, intermediate, chained } = certs as Record<string, TestCert>;
    const entry = parse({ crt: [chained, intermediate, root].map((c) => c?.cert).join('') });
    expect(entry.leaf).toBe(0);
    expect(entry.chain).toEqual({ ordered: true, complete: true, problems: [] });
    expect(entry.certificates.map((c) => [c.commonName, c.isCA, c.selfSigned])).toEqual([
      ['chained.example', false, false],
      ['Test Intermediate', true, false],
      ['Test Root', true, true],
    ]);
    expect(entry.certificates[1]?.issuer).toBe('CN=Test Root');
  });

  it('finds the leaf of a chain out of order, complete but not ordered', () => {
    const { root, intermediate, chained } = certs as Record<string, TestCert>;
    const entry = parse({ crt: [intermediate, root, chained].map((c) => c?.cert).join('\n') });
    expect([entry.leaf, entry.severity]).toEqual([2, 'ok']);
    expect(entry.chain).toEqual({
      ordered: false,
      complete: true,
      problems: ['tls.crt is not in order: the leaf first, then the issuer of each certificate'],
    });
  });

  it('reports a chain missing its intermediate, without making the Secret invalid', () => {
    const { root, chained } = certs as Record<string, TestCert>;
    const entry = parse({ crt: `${chained?.cert}${root?.cert}`, key: chained?.key });
    expect([entry.leaf, entry.severity, entry.problems]).toEqual([0, 'ok', []]);
    expect(entry.chain).toEqual({
      ordered: false,
      complete: false,
      problems: [
        'the issuer of certificate 1 (CN=chained.example) (CN=Test Intermediate) is not in tls.crt (and there is no ca.crt)',
        "certificate 2 (CN=Test Root) is not part of the leaf's chain",
      ],
    });
  });

  it('completes a chain with the root in ca.crt', () => {
    const { root, intermediate, chained } = certs as Record<string, TestCert>;
    const bundle = `${chained?.cert}${intermediate?.cert}`;
    expect(parse({ crt: bundle, ca: root?.cert }).chain).toEqual({
      ordered: true,
      complete: true,
      problems: [],
    });
    expect(parse({ crt: bundle }).chain.complete).toBe(false);
  });

  it('reports an expired intermediate in the chain, and unescapes a comma in a common name', () => {
    const { root, stale } = certs as Record<string, TestCert>;
    const leaf = factory.make({ cn: 'stale.example', issuer: stale, valid: [-1, 20] });
    const entry = parse({ crt: [leaf, stale, root].map((c) => c?.cert).join('') });
    expect([entry.severity, entry.chain.complete, entry.certificates[1]?.subject]).toEqual([
      'warning',
      true,
      'CN=Stale\\, Intermediate',
    ]);
    expect(entry.chain.problems).toEqual([
      `certificate 2 (CN=Stale, Intermediate) expired on ${new Date(now - 2 * 86_400_000).toISOString()}`,
    ]);
  });

  it('makes a certificate that is not valid yet a problem', () => {
    const entry = parse({ crt: certs.future?.cert });
    expect(entry.severity).toBe('invalid');
    expect(entry.problems).toEqual([
      `certificate 1 (CN=future.example) is not valid before ${new Date(now + 2 * 86_400_000).toISOString()}`,
    ]);
  });

  it('makes a key that does not fit the leaf a problem', () => {
    const entry = parse({ crt: certs.ok?.cert, key: certs.warning?.key });
    expect([entry.severity, entry.problems]).toEqual([
      'invalid',
      ['tls.key does not match the leaf certificate'],
    ]);
  });

  it.each([
    ['tls.crt is missing', {}],
    ['tls.crt is empty', { crt: '' }],
    ['tls.crt is not valid base64', { raw: { 'tls.crt': 'not base64!' } }],
    ['tls.crt is not a string', { raw: { 'tls.crt': 42 } }],
    ['tls.crt holds no PEM block', { crt: 'just text' }],
    [
      'tls.crt: PEM block 1 of 1 is not a valid certificate',
      { crt: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' },
    ],
  ])('reports bad data: %s', (problem, fields) => {
    const entry = parse(fields);
    expect(entry).toMatchObject({ severity: 'invalid', problems: [problem], certificates: [], leaf: null });
  });

  it('names a key in tls.crt or a key that does not parse, never quoting key material', () => {
    const { key } = factory.make({ cn: 'k.example' });
    const body = key.split('\n')[1] ?? '';
    const wrongKey = `-----BEGIN PRIVATE KEY-----\n${body.slice(0, 20)}\n-----END PRIVATE KEY-----\n`;
    const keyAsCert = parse({ crt: key });
    const brokenKey = parse({ crt: certs.ok?.cert, key: wrongKey });
    expect(keyAsCert.problems).toEqual(['tls.crt holds no CERTIFICATE PEM block (found PRIVATE KEY)']);
    expect(brokenKey.problems).toEqual(['tls.key does not parse as a private key']);
    for (const entry of [keyAsCert, brokenKey]) {
      expect(JSON.stringify(entry)).not.toContain(body.slice(0, 20));
    }
  });

  it('reads at most maxChainCertificates, and PEM-like text without END lines in linear time', () => {
    const many = parse({ crt: (certs.ok?.cert ?? '').repeat(maxChainCertificates + 1) });
    expect([many.certificates.length, many.severity, many.chain.problems[0]]).toEqual([
      maxChainCertificates,
      'ok',
      `tls.crt holds ${maxChainCertificates + 1} certificates; only the first ${maxChainCertificates} are read`,
    ]);
    const started = performance.now();
    expect(parse({ crt: '-----BEGIN CERTIFICATE-----AAAA\n'.repeat(20_000) }).problems).toEqual([
      'tls.crt holds no PEM block',
    ]);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('keeps a chain problem from ca.crt apart from the Secret problems', () => {
    const entry = parse({ crt: certs.ok?.cert, raw: { 'ca.crt': '%%%' } });
    expect([entry.severity, entry.chain.problems]).toEqual(['ok', ['ca.crt is not valid base64']]);
  });
});
