import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import type { ObjectFinding } from './engine.ts';
import { auditReport } from './report.ts';

const object = (kind: string, name: string, namespace?: string): KubeObject => ({
  kind,
  metadata: { name, ...(namespace ? { namespace } : {}) },
});
const finding = (
  kind: string,
  name: string,
  namespace: string | undefined,
  severity: 'warning' | 'danger',
  checkId = 'runAsRoot',
): ObjectFinding => ({
  kind,
  ...(namespace ? { namespace } : {}),
  name,
  checkId,
  category: 'Security',
  severity,
  message: 'm',
});

describe('auditReport', () => {
  const audited = [
    object('Deployment', 'web', 'shop'),
    object('Deployment', 'api', 'shop'),
    object('Service', 'web', 'shop'),
    object('Deployment', 'db', 'data'),
    object('ClusterRole', 'wide'),
    object('Deployment', 'quiet', 'calm'),
  ];
  const findings = [
    finding('Deployment', 'web', 'shop', 'danger', 'privileged'),
    finding('Deployment', 'web', 'shop', 'warning'),
    finding('Deployment', 'db', 'data', 'warning'),
    finding('ClusterRole', 'wide', undefined, 'danger', 'clusterAdminBinding'),
  ];

  it('counts passing objects, warnings and dangers per namespace, most dangerous first, cluster scope apart', () => {
    expect(auditReport(audited, findings, [], []).namespaces).toEqual([
      { namespace: 'shop', passing: 2, warning: 1, danger: 1 },
      { passing: 0, warning: 0, danger: 1 },
      { namespace: 'data', passing: 0, warning: 1, danger: 0 },
      { namespace: 'calm', passing: 1, warning: 0, danger: 0 },
    ]);
  });

  it('agrees with the summary', () => {
    const report = auditReport(audited, findings, [], []);
    const sum = (key: 'passing' | 'warning' | 'danger') => report.namespaces.reduce((n, c) => n + c[key], 0);
    expect([sum('passing'), sum('warning'), sum('danger')]).toEqual([
      report.summary.passing,
      report.summary.warning,
      report.summary.danger,
    ]);
  });
});
