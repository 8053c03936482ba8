import type { KubeObject } from '@binnacle/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CertFactory, certFactory, tlsSecret } from '../../testing/certs.ts';
import { certificateReport } from './report.ts';

let factory: CertFactory;
let secrets: KubeObject[];

beforeAll(() => {
  factory = certFactory();
  const make = factory.make;
  secrets = [
    tlsSecret('fine', { crt: make({ cn: 'fine.example' }).cert }),
    tlsSecret('soon', { crt: make({ cn: 'soon.example', valid: [-60, 20] }).cert }, 'b'),
    tlsSecret('sooner', { crt: make({ cn: 'sooner.example', valid: [-60, 12] }).cert }, 'a'),
    tlsSecret('gone', { crt: make({ cn: 'gone.example', valid: [-60, -1] }).cert }),
    tlsSecret('broken', { raw: { 'tls.crt': '!!' } }),
    {
      kind: 'Secret',
      metadata: { name: 'opaque', namespace: 'apps' },
      type: 'Opaque',
      data: { 'tls.crt': '!!' },
    },
  ];
});

afterAll(() => factory.dispose());

const certificate = (name: string, secretName: string, notAfter?: string): KubeObject => ({
  kind: 'Certificate',
  metadata: { name, namespace: 'apps' },
  spec: { secretName },
  status: { notAfter, conditions: [{ type: 'Ready', status: notAfter ? 'True' : 'False' }] },
});

describe('certificateReport', () => {
  it('reads only TLS Secrets, most urgent first, and counts them', () => {
    const report = certificateReport(secrets, undefined, factory.now);
    expect(report.items.map((i) => [i.kind, i.namespace, i.name, i.severity, i.daysLeft])).toEqual([
      ['Secret', 'apps', 'gone', 'expired', -1],
      ['Secret', 'apps', 'broken', 'invalid', null],
      ['Secret', 'a', 'sooner', 'warning', 12],
      ['Secret', 'b', 'soon', 'warning', 20],
      ['Secret', 'apps', 'fine', 'ok', 90],
    ]);
    expect(report.summary).toEqual({ total: 5, ok: 1, warning: 2, critical: 0, expired: 1, invalid: 1 });
    expect(report.certManager).toBe(false);
  });

  it('adds Certificates, linked both ways to the Secrets they write', () => {
    const fine = certificateReport(secrets, [], factory.now).items.find((i) => i.name === 'fine');
    const report = certificateReport(
      secrets,
      [certificate('fine-cert', 'fine', fine?.notAfter ?? undefined), certificate('pending', 'missing')],
      factory.now,
    );
    expect(report.certManager).toBe(true);
    expect(report.summary).toMatchObject({ total: 7, ok: 2, invalid: 2 });
    const byName = new Map(report.items.map((i) => [i.name, i]));
    expect(byName.get('fine')).toMatchObject({ kind: 'Secret', managedBy: 'fine-cert' });
    expect(byName.get('gone')).toMatchObject({ managedBy: null });
    expect(byName.get('fine-cert')).toMatchObject({
      kind: 'Certificate',
      severity: 'ok',
      problems: [],
      secret: { name: 'fine', severity: 'ok' },
    });
    expect(byName.get('pending')).toMatchObject({ severity: 'invalid', secret: null });
    expect(report.items.map((i) => i.name).slice(1, 3)).toEqual(['broken', 'pending']);
  });

  it('reports nothing for no Secrets', () => {
    expect(certificateReport([], [], 0)).toEqual({
      items: [],
      summary: { total: 0, ok: 0, warning: 0, critical: 0, expired: 0, invalid: 0 },
      certManager: true,
    });
  });
});
