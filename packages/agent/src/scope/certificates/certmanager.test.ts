import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { certManagerEntry, secretKey } from './certmanager.ts';
import type { SecretCertificates } from './parse.ts';

const now = Date.parse('2026-03-01T00:00:00Z');
const day = 86_400_000;
const iso = (days: number) => new Date(now + days * day).toISOString();

const certificate = (status: Record<string, unknown>, spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: { name: 'web', namespace: 'apps' },
  spec: { secretName: 'web-tls', dnsNames: ['web.example', 'www.web.example'], ...spec },
  status,
});

const ready = { type: 'Ready', status: 'True', reason: 'Ready' };
const issued = (days: number) => ({ notAfter: iso(days), renewalTime: iso(days - 30), conditions: [ready] });

const secretEntry = (
  notAfter: string,
  severity: SecretCertificates['severity'] = 'ok',
): SecretCertificates => ({
  kind: 'Secret',
  namespace: 'apps',
  name: 'web-tls',
  type: 'kubernetes.io/tls',
  certificates: [],
  leaf: null,
  notAfter,
  daysLeft: null,
  chain: { ordered: true, complete: true, problems: [] },
  severity,
  problems: [],
});
const secrets = (...entries: SecretCertificates[]) =>
  new Map(entries.map((e) => [secretKey(e.namespace, e.name), e]));

describe('certManagerEntry', () => {
  it('reads an issued, ready Certificate and links its Secret', () => {
    const entry = certManagerEntry(certificate(issued(60)), secrets(secretEntry(iso(60))), now);
    expect(entry).toEqual({
      kind: 'Certificate',
      namespace: 'apps',
      name: 'web',
      secretName: 'web-tls',
      dnsNames: ['web.example', 'www.web.example'],
      notAfter: iso(60),
      renewalTime: iso(30),
      ready: true,
      daysLeft: 60,
      severity: 'ok',
      problems: [],
      secret: { name: 'web-tls', severity: 'ok', notAfter: iso(60), fingerprint256: null },
    });
  });

  it.each([
    [20, 'warning'],
    [5, 'critical'],
    [-2, 'expired'],
  ])('rates %i days left %s', (days, severity) => {
    const entry = certManagerEntry(certificate({ notAfter: iso(days), conditions: [ready] }), secrets(), now);
    expect([entry.daysLeft, entry.severity]).toEqual([days, severity]);
  });

  it('is invalid until issued, and says why it is not ready', () => {
    const pending = {
      type: 'Ready',
      status: 'False',
      reason: 'DoesNotExist',
      message: 'Issuing certificate',
    };
    const entry = certManagerEntry(certificate({ conditions: [pending] }), secrets(), now);
    expect([entry.ready, entry.daysLeft, entry.severity, entry.secret]).toEqual([
      false,
      null,
      'invalid',
      null,
    ]);
    expect(entry.problems).toEqual([
      'not Ready (DoesNotExist: Issuing certificate)',
      'not issued yet: no status.notAfter',
      'Secret web-tls not found among kubernetes.io/tls Secrets',
    ]);
  });

  it('reports an overdue renewal and a Secret that disagrees with the status', () => {
    const status = { notAfter: iso(10), renewalTime: iso(-1), conditions: [ready] };
    const entry = certManagerEntry(certificate(status), secrets(secretEntry(iso(-3), 'invalid')), now);
    expect([entry.severity, entry.secret?.severity]).toEqual(['warning', 'invalid']);
    expect(entry.problems).toEqual([
      `renewal overdue since ${iso(-1)}`,
      'Secret web-tls is invalid',
      `Secret web-tls holds a certificate valid until ${iso(-3)}, not status.notAfter`,
    ]);
  });

  it('copes with a Certificate missing spec and status fields', () => {
    const entry = certManagerEntry({ kind: 'Certificate', metadata: { name: 'bare' } }, secrets(), now);
    expect(entry).toMatchObject({ namespace: '', secretName: null, dnsNames: [], ready: null });
    expect(entry.problems).toEqual([
      'no Ready condition yet',
      'not issued yet: no status.notAfter',
      'spec.secretName is missing',
    ]);
  });

  it('does not link a Secret of the same name in another namespace', () => {
    const other = { ...secretEntry(iso(60)), namespace: 'other' };
    expect(certManagerEntry(certificate(issued(60)), secrets(other), now).secret).toBeNull();
  });
});
