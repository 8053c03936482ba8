import type { KubeObject } from '@binnacle/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectFinding } from '../../scope/audit/engine.ts';
import { certificateReport } from '../../scope/certificates/report.ts';
import { type CertFactory, certFactory, tlsSecret } from '../../testing/certs.ts';
import { auditProblems, certificateProblems, objectsByKey } from './findings.ts';

let factory: CertFactory;
beforeAll(() => {
  factory = certFactory();
});
afterAll(() => factory.dispose());

const created = (object: KubeObject, secondsAgo: number): KubeObject => ({
  ...object,
  metadata: {
    ...object.metadata,
    creationTimestamp: new Date(factory.now - secondsAgo * 1000).toISOString(),
  },
});

describe('certificateProblems', () => {
  it('names Secrets that expired, expire within 7 days or cannot be read; not those within 30 days', () => {
    const make = factory.make;
    const secrets = [
      created(tlsSecret('fine', { crt: make({ cn: 'fine.example' }).cert }), 60),
      created(tlsSecret('month', { crt: make({ cn: 'month.example', valid: [-60, 20] }).cert }), 60),
      created(tlsSecret('soon', { crt: make({ cn: 'soon.example', valid: [-60, 3] }).cert }), 120),
      created(tlsSecret('tomorrow', { crt: make({ cn: 'one.example', valid: [-60, 1] }).cert }), 5),
      created(tlsSecret('gone', { crt: make({ cn: 'gone.example', valid: [-60, -4] }).cert }), 300),
      created(tlsSecret('broken', { raw: { 'tls.crt': '!!' } }), 30),
    ];
    const report = certificateReport(secrets, undefined, factory.now);
    const problems = certificateProblems(report, objectsByKey(secrets), factory.now);
    expect(problems.map((p) => [p.name, p.status, p.reason, p.ageSeconds, p.source])).toEqual([
      ['gone', 'expired', 'CertificateExpired', 300, 'certificate'],
      ['broken', 'invalid', 'CertificateInvalid', 30, 'certificate'],
      ['tomorrow', 'critical', 'CertificateExpiring', 5, 'certificate'],
      ['soon', 'critical', 'CertificateExpiring', 120, 'certificate'],
    ]);
    expect(problems[0]?.message).toMatch(
      /^the certificate for gone\.example expired 4 days ago \(not after 20/,
    );
    expect(problems[1]?.message).toBe('tls.crt is not valid base64');
    expect(problems[2]?.message).toMatch(/^the certificate for one\.example expires in 1 day \(/);
    expect(problems[3]?.message).toMatch(/^the certificate for soon\.example expires in 3 days \(/);
  });

  it('tells a Certificate whose Secret is listed by that Secret, and one without a Secret itself', () => {
    const gone = tlsSecret('gone', { crt: factory.make({ cn: 'gone.example', valid: [-60, -1] }).cert });
    const certificate = (name: string, secretName: string): KubeObject => ({
      kind: 'Certificate',
      metadata: { name, namespace: 'apps' },
      spec: { secretName, dnsNames: [`${name}.example`] },
      status: { notAfter: new Date(factory.now - 86_400_000).toISOString() },
    });
    const report = certificateReport(
      [gone],
      [certificate('written', 'gone'), certificate('orphan', 'absent')],
      factory.now,
    );
    const problems = certificateProblems(report, objectsByKey([gone]), factory.now);
    expect(problems.map((p) => `${p.kind}/${p.name}`).sort()).toEqual(['Certificate/orphan', 'Secret/gone']);
    expect(problems.find((p) => p.kind === 'Certificate')?.message).toMatch(
      /^the certificate for orphan\.example expired 1 day ago/,
    );
  });
});

describe('auditProblems', () => {
  const finding = (
    name: string,
    checkId: string,
    severity: 'warning' | 'danger',
    message: string,
  ): ObjectFinding => ({
    kind: 'Deployment',
    namespace: 'apps',
    name,
    checkId,
    category: 'Security',
    severity,
    message,
  });

  it('gives one problem per danger finding, named by its check, aged by its object', () => {
    const web = created({ kind: 'Deployment', metadata: { name: 'web', namespace: 'apps' } }, 90);
    const dangers = [
      { finding: finding('web', 'privileged', 'danger', 'container app is privileged'), object: web },
      { finding: finding('web', 'hostPID', 'danger', 'shares the host PID namespace'), object: web },
    ];
    const base = { kind: 'Deployment', namespace: 'apps', name: 'web', status: 'danger', ageSeconds: 90 };
    expect(auditProblems(dangers, factory.now)).toEqual([
      {
        ...base,
        reason: 'Privileged container',
        message: 'container app is privileged',
        source: 'audit',
        check: 'privileged',
      },
      {
        ...base,
        reason: expect.any(String),
        message: 'shares the host PID namespace',
        source: 'audit',
        check: 'hostPID',
      },
    ]);
  });
});
