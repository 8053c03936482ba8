import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { redactArgs, redacted, redactManifest, redactObject, redactText, redactValues } from './redact.ts';

const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEiLCJpYXQiOjE3MDB9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
const planted = [
  'hunter2-db-password',
  'ghp_0123456789abcdefghijABCDEFGHIJ012345',
  'AKIAIOSFODNN7EXAMPLE',
  'xoxb-1234567890-abcdefghij',
  'sk_live_0123456789abcdefABCD',
  'dGhpcyBpcyBhIHZlcnkgc2VjcmV0IGtleSB0aGF0IG11c3Qgbm90IGxlYWs=',
  'glpat-abcdefghij0123456789',
  jwt,
];

describe('redactText', () => {
  it.each([
    ['password=hunter2-db-password', `password=${redacted}`],
    ['DB_PASSWORD: "hunter2-db-password"', `DB_PASSWORD: ${redacted}`],
    ['{"api_key": "k-123", "user": "ada"}', `{"api_key": ${redacted}, "user": "ada"}`],
    ['--client-secret=s3cr3t', `--client-secret=${redacted}`],
    ['Authorization: Bearer abcdefgh12345678', `Authorization: ${redacted} ${redacted}`],
    ['curl -H "Bearer abcdefgh12345678"', `curl -H "Bearer ${redacted}"`],
    ['postgres://app:hunter2@db:5432/shop', `postgres://app:${redacted}@db:5432/shop`],
    [`token ${jwt} used`, `token ${redacted} used`],
    ['key AKIAIOSFODNN7EXAMPLE here', `key ${redacted} here`],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----', `${redacted} private key`],
  ])('%s', (text, expected) => {
    expect(redactText(text)).toBe(expected);
  });

  it('leaves ordinary text, hex digests and image references alone', () => {
    for (const text of [
      'GET /api/health 200 in 3ms',
      'image ghcr.io/acme/web@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      'replicas: 3, ready: 3',
      'Started container app',
    ])
      expect(redactText(text)).toBe(text);
  });

  it('takes out every planted credential from a log line', () => {
    const [password, ...shaped] = planted;
    const out = redactText(`login password=${password} then ${shaped.join(' ')} Bearer ${planted[1]}`);
    for (const p of planted) expect(out).not.toContain(p);
  });
});

describe('redactArgs', () => {
  it('drops the value after a sensitive flag and scrubs the rest', () => {
    expect(redactArgs(['--password', 'hunter2', '--port', '80', 'token=abc', 'serve'])).toEqual([
      '--password',
      redacted,
      '--port',
      '80',
      `token=${redacted}`,
      'serve',
    ]);
  });
});

describe('redactObject', () => {
  const podSpec = {
    containers: [
      {
        name: 'app',
        image: 'web:1',
        command: ['/bin/app', '--api-key', 'k-0123'],
        args: ['--db=postgres://app:hunter2@db/shop'],
        env: [
          { name: 'DB_PASSWORD', value: 'hunter2-db-password' },
          { name: 'LOG_LEVEL', value: 'info' },
          { name: 'GREETING', value: `hello Bearer ${planted[1]}` },
          { name: 'FROM_SECRET', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
        ],
      },
    ],
  };

  it("keeps a Secret's keys and never its values, nor the last-applied copy of them", () => {
    const secret: KubeObject = {
      kind: 'Secret',
      metadata: {
        name: 'db',
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"password":"aHVudGVy"}}',
        },
        managedFields: [{ manager: 'kubectl' }],
      },
      type: 'Opaque',
      data: { password: 'aHVudGVy', user: 'YWRh' },
      stringData: { extra: 'plain' },
    };
    const out = redactObject(secret);
    expect(out.data).toBeUndefined();
    expect(out.stringData).toBeUndefined();
    expect(out.dataKeys).toEqual(['extra', 'password', 'user']);
    expect(JSON.stringify(out)).not.toContain('aHVudGVy');
    expect(out.metadata).toEqual({ name: 'db', annotations: {} });
  });

  it('scrubs env values, commands and args in pods and in workload and CronJob templates', () => {
    const pod = redactObject({ kind: 'Pod', metadata: { name: 'p' }, spec: podSpec });
    const cron = redactObject({
      kind: 'CronJob',
      metadata: { name: 'c' },
      spec: { jobTemplate: { spec: { template: { spec: podSpec } } } },
    });
    for (const out of [pod, cron]) {
      const text = JSON.stringify(out);
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('k-0123');
      expect(text).not.toContain(planted[1]);
      expect(text).toContain('"LOG_LEVEL","value":"info"');
      expect(text).toContain('secretKeyRef');
    }
  });

  it('scrubs ConfigMap values by key and by shape', () => {
    const out = redactObject({
      kind: 'ConfigMap',
      metadata: { name: 'settings' },
      data: { DB_PASSWORD: 'hunter2', 'app.yaml': 'db:\n  password: hunter2\n  host: db', LOG_LEVEL: 'info' },
      binaryData: { blob: 'AAAA' },
    });
    expect(out.data).toEqual({
      DB_PASSWORD: redacted,
      'app.yaml': `db:\n  password: ${redacted}\n  host: db`,
      LOG_LEVEL: 'info',
    });
    expect(out.binaryData).toEqual({ blob: redacted });
  });
});

describe('redactValues', () => {
  it('drops scalars under credential keys at any depth, keeps the shape of sections, scrubs other strings', () => {
    const values = {
      replicaCount: 2,
      auth: { enabled: true, password: 'hunter2-db-password', existingSecret: '' },
      postgresql: { primary: { extraEnv: [{ name: 'X', value: `token=${planted[1]}` }] } },
      webhook: `https://ci:${planted[0]}@ci.example.com/hook`,
      apiKey: 12345,
      image: { repository: 'ghcr.io/acme/web', tag: '1.2.3' },
    };
    expect(redactValues(values)).toEqual({
      replicaCount: 2,
      auth: { enabled: true, password: redacted, existingSecret: '' },
      postgresql: { primary: { extraEnv: [{ name: 'X', value: `token=${redacted}` }] } },
      webhook: `https://ci:${redacted}@ci.example.com/hook`,
      apiKey: redacted,
      image: { repository: 'ghcr.io/acme/web', tag: '1.2.3' },
    });
  });
});

describe('redactManifest', () => {
  it("keeps a Secret's keys and drops its values in every document, and scrubs the others", () => {
    const manifest = [
      '# Source: shop/templates/secret.yaml',
      'apiVersion: v1',
      'kind: Secret',
      'metadata: { name: db }',
      `data: { password: aHVudGVyMg== }`,
      `stringData: { token: ${planted[0]} }`,
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: { name: settings }',
      `data: { DB_PASSWORD: ${planted[0]}, LOG_LEVEL: info }`,
      '---',
    ].join('\n');
    const out = redactManifest(manifest);
    expect(out).not.toContain('aHVudGVyMg==');
    expect(out).not.toContain(planted[0]);
    expect(out).toContain('dataKeys:\n  - password\n  - token');
    expect(out).toContain(`DB_PASSWORD: "${redacted}"`);
    expect(out).toContain('LOG_LEVEL: info');
    expect(out.split('---\n')).toHaveLength(2);
  });
});
