import { cellText, type KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { certManagerStates } from '../../testing/ecosystem/cert-manager.ts';
import { kedaStates } from '../../testing/ecosystem/keda.ts';
import { veleroStates } from '../../testing/ecosystem/velero.ts';
import { withHealthColumns } from './health-columns.ts';
import { crdPrinter } from './printers/crd.ts';

const crd = (columns: object[]): KubeObject => ({
  spec: { versions: [{ name: 'v1', served: true, storage: true, additionalPrinterColumns: columns }] },
});
/** cert-manager v1.19.1's Certificate columns (deploy/crds/cert-manager.io_certificates.yaml). */
const certificateCrd = crd([
  { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type == "Ready")].status' },
  { name: 'Secret', type: 'string', jsonPath: '.spec.secretName' },
  { name: 'Issuer', type: 'string', jsonPath: '.spec.issuerRef.name', priority: 1 },
  {
    name: 'Status',
    type: 'string',
    jsonPath: '.status.conditions[?(@.type == "Ready")].message',
    priority: 1,
  },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
]);
const row = (printer: ReturnType<typeof withHealthColumns>, object: KubeObject) => {
  const printed = printer.print(object);
  return {
    cells: Object.fromEntries(printer.columns.map((c, i) => [c.name, cellText(printed.cells[i] ?? null, 0)])),
    status: printed.status,
  };
};

describe('custom resource tables', () => {
  const certificates = certManagerStates('shop', 'eco').filter((f) => f.object.kind === 'Certificate');
  const printer = withHealthColumns(crdPrinter(certificateCrd, 'v1'), 'cert-manager.io', 'Certificate');

  it("keep kubectl's columns first and add the operator's fields, then the health with its why", () => {
    expect(printer.columns.map((c) => [c.name, c.priority])).toEqual([
      ['READY', 0],
      ['SECRET', 0],
      ['ISSUER', 1],
      ['STATUS', 1],
      ['AGE', 0],
      ['NOT AFTER', 0],
      ['RENEWAL', 1],
      ['HEALTH', 0],
      ['HEALTH REASON', 0],
      ['HEALTH MESSAGE', 1],
    ]);
  });

  it('print each state with the health the docs give it, coloured as a status', () => {
    const [healthy, issuing, failed] = certificates.map((f) => row(printer, f.object));
    expect(healthy?.cells).toMatchObject({ READY: 'True', SECRET: 'eco-cert-tls', HEALTH: 'healthy' });
    expect(healthy?.cells['NOT AFTER']).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(healthy?.status).toEqual({ text: 'healthy', tone: 'ok' });
    expect(issuing?.cells).toMatchObject({ HEALTH: 'degraded', 'HEALTH REASON': 'Issuing: DoesNotExist' });
    expect(issuing?.status?.tone).toBe('progress');
    expect(failed?.cells).toMatchObject({ HEALTH: 'unhealthy', 'HEALTH REASON': 'Issuing: Failed' });
    expect(failed?.cells['HEALTH MESSAGE']).toContain('will be retried');
    expect(failed?.status).toEqual({ text: 'unhealthy', tone: 'error' });
  });

  it('give a kind without printer columns (Velero Backup) its phase, counts, namespaces and expiry', () => {
    const backups = withHealthColumns(crdPrinter(crd([]), 'v1'), 'velero.io', 'Backup');
    expect(backups.columns.map((c) => c.name)).toEqual([
      'AGE',
      'PHASE',
      'ERRORS',
      'WARNINGS',
      'NAMESPACES',
      'EXPIRES',
      'STORAGE LOCATION',
      'HEALTH',
      'HEALTH REASON',
      'HEALTH MESSAGE',
    ]);
    const partial = veleroStates('velero', 'eco').find((f) => f.object.metadata?.name === 'eco-partial');
    expect(row(backups, partial?.object as KubeObject).cells).toMatchObject({
      PHASE: 'PartiallyFailed',
      ERRORS: '2',
      NAMESPACES: 'shop,payments',
      HEALTH: 'unhealthy',
      'HEALTH REASON': 'phase: PartiallyFailed',
      'HEALTH MESSAGE': '2 errors',
    });
  });

  it('do not repeat a column the CRD already prints', () => {
    const withPhase = crd([{ name: 'Phase', type: 'string', jsonPath: '.status.phase' }]);
    const names = withHealthColumns(crdPrinter(withPhase, 'v1'), 'velero.io', 'Backup').columns.map(
      (c) => c.name,
    );
    expect(names.filter((name) => name === 'PHASE')).toHaveLength(1);
  });

  it("show a ScaledObject's HPA, and none while a pause without a count has KEDA delete it", () => {
    const scalers = withHealthColumns(crdPrinter(crd([]), 'v1'), 'keda.sh', 'ScaledObject');
    const byName = (name: string) =>
      kedaStates('shop', 'eco').find((f) => f.object.metadata?.name === name)?.object as KubeObject;
    expect(row(scalers, byName('eco-scaler')).cells.HPA).toBe('keda-hpa-eco-scaler');
    const paused = byName('eco-scaler-paused');
    expect(paused.status).toMatchObject({ hpaName: 'keda-hpa-eco-scaler-paused' });
    expect(row(scalers, paused).cells.HPA).toBe('none while paused');
    const pinned = {
      ...paused,
      metadata: { ...paused.metadata, annotations: { 'autoscaling.keda.sh/paused-replicas': '2' } },
    };
    expect(row(scalers, pinned).cells.HPA).toBe('keda-hpa-eco-scaler-paused');
  });
});
