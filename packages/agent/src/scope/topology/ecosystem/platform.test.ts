import { describe, expect, it } from 'vitest';
import { buildTopology, defaultTopologyOptions } from '../builder.ts';
import { edgeLines, inputOf, object } from './objects.fixture.ts';

describe('Crossplane', () => {
  const xrd = object(
    'apiextensions.crossplane.io/v1',
    'CompositeResourceDefinition',
    undefined,
    'xdatabases.acme.io',
    {
      spec: { group: 'acme.io', names: { kind: 'XDatabase' }, claimNames: { kind: 'Database' } },
    },
  );
  const claim = object('acme.io/v1', 'Database', 'shop', 'orders', {
    spec: { resourceRef: { apiVersion: 'acme.io/v1', kind: 'XDatabase', name: 'orders-x7' } },
  });
  const composite = object('acme.io/v1', 'XDatabase', undefined, 'orders-x7', {
    spec: {
      compositionRef: { name: 'rds' },
      resourceRefs: [
        { apiVersion: 'rds.aws.upbound.io/v1beta1', kind: 'Instance', name: 'orders-x7-db' },
        { apiVersion: 'iam.aws.upbound.io/v1beta1', kind: 'Role', name: 'orders-x7-role' },
      ],
    },
  });
  const composition = object('apiextensions.crossplane.io/v1', 'Composition', undefined, 'rds');
  const instance = object('rds.aws.upbound.io/v1beta1', 'Instance', undefined, 'orders-x7-db');
  const role = object('iam.aws.upbound.io/v1beta1', 'Role', undefined, 'orders-x7-role');

  it('draws claim → composite → managed resources and the Composition, by the kinds the XRD defines', () => {
    const t = buildTopology(inputOf(xrd, claim, composite, composition, instance, role));
    expect(edgeLines(t.edges)).toEqual([
      'database.acme.io/shop/orders -manages-> xdatabase.acme.io/orders-x7',
      'xdatabase.acme.io/orders-x7 -manages-> instance.rds.aws.upbound.io/orders-x7-db',
      'xdatabase.acme.io/orders-x7 -manages-> role.iam.aws.upbound.io/orders-x7-role',
      'xdatabase.acme.io/orders-x7 -uses-> composition.apiextensions.crossplane.io/rds',
    ]);
  });

  it('reads v2 composites, their references under spec.crossplane, and flags a managed resource gone', () => {
    const v2 = object('acme.io/v2', 'XDatabase', 'shop', 'orders', {
      spec: {
        crossplane: {
          compositionRef: { name: 'rds' },
          resourceRefs: [{ apiVersion: 'rds.aws.upbound.io/v1beta1', kind: 'Instance', name: 'orders-db' }],
        },
      },
    });
    const t = buildTopology({ ...inputOf(xrd, v2, composition), 'Instance.rds.aws.upbound.io': [] });
    expect(edgeLines(t.edges)).toEqual([
      'xdatabase.acme.io/shop/orders -manages-> instance.rds.aws.upbound.io/shop/orders-db',
      'xdatabase.acme.io/shop/orders -uses-> composition.apiextensions.crossplane.io/rds',
    ]);
    expect(t.nodes.find((n) => n.kind === 'XDatabase')?.data.problems).toEqual([
      'Instance shop/orders-db does not exist',
    ]);
  });

  it('draws in a namespace graph the cluster-scoped composite a claim names, and what it manages', () => {
    const t = buildTopology(inputOf(xrd, claim, composite, composition, instance, role), {
      ...defaultTopologyOptions,
      namespaces: ['shop'],
    });
    expect(t.nodes.map((n) => n.id).sort()).toEqual([
      'composition.apiextensions.crossplane.io/rds',
      'database.acme.io/shop/orders',
      'instance.rds.aws.upbound.io/orders-x7-db',
      'role.iam.aws.upbound.io/orders-x7-role',
      'xdatabase.acme.io/orders-x7',
    ]);
  });
});

describe('Kyverno', () => {
  const policy = object('kyverno.io/v1', 'ClusterPolicy', undefined, 'require-limits');
  const deployment = object('apps/v1', 'Deployment', 'shop', 'web', {
    spec: { template: { spec: { containers: [] } } },
  });
  const result = (outcome: string) => ({ policy: 'require-limits', rule: 'limits', result: outcome });
  const report = (name: string, outcomes: string[]) =>
    object('wgpolicyk8s.io/v1alpha2', 'PolicyReport', 'shop', name, {
      scope: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
      results: outcomes.map(result),
    } as never);

  it('draws Policy → report → the object it names, and counts its results by outcome on it', () => {
    const t = buildTopology(inputOf(policy, deployment, report('r1', ['fail', 'fail', 'warn', 'pass'])));
    expect(edgeLines(t.edges)).toEqual([
      'clusterpolicy.kyverno.io/require-limits -configures-> policyreport.wgpolicyk8s.io/shop/r1',
      'policyreport.wgpolicyk8s.io/shop/r1 -configures-> deployment/shop/web',
    ]);
    expect(t.nodes.find((n) => n.id === 'deployment/shop/web')?.data.policyResults).toEqual({
      pass: 1,
      fail: 2,
      warn: 1,
      error: 0,
    });
  });

  it('draws reports whose results all passed, their passes counted on the object (skips are not)', () => {
    const t = buildTopology(inputOf(policy, deployment, report('r2', ['pass', 'pass', 'skip'])));
    expect(edgeLines(t.edges)).toEqual([
      'clusterpolicy.kyverno.io/require-limits -configures-> policyreport.wgpolicyk8s.io/shop/r2',
      'policyreport.wgpolicyk8s.io/shop/r2 -configures-> deployment/shop/web',
    ]);
    expect(t.nodes.find((n) => n.id === 'deployment/shop/web')?.data.policyResults).toEqual({
      pass: 2,
      fail: 0,
      warn: 0,
      error: 0,
    });
  });

  it('leaves out reports with only skipped results', () => {
    const t = buildTopology(inputOf(deployment, report('r3', ['skip'])));
    expect(t.nodes.map((n) => n.kind)).toEqual(['Deployment']);
  });
});

describe('Velero', () => {
  const v = 'velero.io/v1';
  const location = object(v, 'BackupStorageLocation', 'velero', 'default', { spec: { provider: 'aws' } });
  const schedule = object(v, 'Schedule', 'velero', 'nightly', {
    spec: { schedule: '0 1 * * *', template: { includedNamespaces: ['shop'], storageLocation: 'default' } },
  });
  const backup = object(v, 'Backup', 'velero', 'nightly-20261129010000', {
    metadata: { labels: { 'velero.io/schedule-name': 'nightly' } },
    spec: { includedNamespaces: ['shop'], storageLocation: 'default' },
    status: { phase: 'Completed' },
  });
  const restore = (name: string, from: string) =>
    object(v, 'Restore', 'velero', name, { spec: { backupName: from }, status: { phase: 'Completed' } });

  it('draws Schedule → Backup, Restore → Backup, both → their storage location, with phase and namespaces', () => {
    const t = buildTopology(inputOf(location, schedule, backup, restore('back', 'nightly-20261129010000')));
    expect(edgeLines(t.edges)).toEqual([
      'backup.velero.io/velero/nightly-20261129010000 -uses-> backupstoragelocation.velero.io/velero/default',
      'restore.velero.io/velero/back -uses-> backup.velero.io/velero/nightly-20261129010000',
      'schedule.velero.io/velero/nightly -manages-> backup.velero.io/velero/nightly-20261129010000',
      'schedule.velero.io/velero/nightly -uses-> backupstoragelocation.velero.io/velero/default',
    ]);
    expect(t.nodes.find((n) => n.kind === 'Backup')?.data).toEqual({
      phase: 'Completed',
      namespaces: ['shop'],
      excludedNamespaces: [],
    });
    expect(t.nodes.find((n) => n.kind === 'Restore')?.data).toMatchObject({ namespaces: ['*'] });
  });

  it('flags a Restore whose Backup is gone', () => {
    const t = buildTopology(inputOf(backup, restore('old', 'weekly-1')));
    expect(t.nodes.find((n) => n.id === 'restore.velero.io/velero/old')?.data.problems).toEqual([
      'Backup velero/weekly-1 does not exist',
    ]);
  });
});
