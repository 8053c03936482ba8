import { describe, expect, it } from 'vitest';
import type { Case } from './cases.ts';
import { isPositive } from './cases.ts';
import {
  assertEveryDescribedCheckExists,
  assertUniqueNames,
  auditObject,
  catalogueMarkdown,
  categories,
  checkCatalogue,
  checks,
} from './catalogue.ts';
import { createAuditContext } from './context.ts';
import { deprecationCases } from './deprecations.cases.ts';
import { efficiencyCases } from './efficiency.cases.ts';
import {
  deployment,
  ingress,
  labels,
  networkPolicy,
  now,
  object,
  pdb,
  pod,
  readyPod,
  service,
} from './fixtures.ts';
import { metaFor } from './meta.ts';
import { referenceCases } from './references.cases.ts';
import { reliabilityPodCases } from './reliability-pod.cases.ts';
import { reliabilityScalingCases } from './reliability-scaling.cases.ts';
import { securityConfigCases } from './security-config.cases.ts';
import { securityPodCases } from './security-pod.cases.ts';
import { securityRbacCases } from './security-rbac.cases.ts';
import type { Check } from './types.ts';

const allCases: Case[] = [
  ...securityPodCases,
  ...securityConfigCases,
  ...securityRbacCases,
  ...reliabilityPodCases,
  ...reliabilityScalingCases,
  ...deprecationCases,
  ...referenceCases,
  ...efficiencyCases,
];

/** Fairwinds Polaris' default checks (pkg/config/default.yaml). */
const polarisDefaults = [
  'deploymentMissingReplicas',
  'priorityClassNotSet',
  'tagNotSpecified',
  'pullPolicyNotAlways',
  'readinessProbeMissing',
  'livenessProbeMissing',
  'metadataAndInstanceMismatched',
  'pdbDisruptionsIsZero',
  'missingPodDisruptionBudget',
  'topologySpreadConstraint',
  'hpaMaxAvailability',
  'hpaMinAvailability',
  'pdbMinAvailableGreaterThanHPAMinReplicas',
  'cpuRequestsMissing',
  'cpuLimitsMissing',
  'memoryRequestsMissing',
  'memoryLimitsMissing',
  'automountServiceAccountToken',
  'hostIPCSet',
  'hostPathSet',
  'hostProcess',
  'hostPIDSet',
  'linuxHardening',
  'missingNetworkPolicy',
  'notReadOnlyRootFilesystem',
  'privilegeEscalationAllowed',
  'procMount',
  'runAsRootAllowed',
  'runAsPrivileged',
  'dangerousCapabilities',
  'insecureCapabilities',
  'hostNetworkSet',
  'hostPortSet',
  'tlsSettingsMissing',
  'sensitiveContainerEnvVar',
  'sensitiveConfigmapContent',
  'clusterrolePodExecAttach',
  'rolePodExecAttach',
  'clusterrolebindingPodExecAttach',
  'rolebindingClusterRolePodExecAttach',
  'rolebindingRolePodExecAttach',
  'clusterrolebindingClusterAdmin',
  'rolebindingClusterAdminClusterRole',
  'rolebindingClusterAdminRole',
];

/** The checks the reference list names, by id. */
const referenceIds = [
  ...[
    'runAsRoot',
    'privileged',
    'privilegeEscalation',
    'readOnlyRootFs',
    'dangerousCapabilities',
    'dockerSocketMount',
  ],
  ...['sensitiveHostPath', 'secretInConfigMap', 'insecureCapabilities', 'hostNetwork', 'hostPID', 'hostIPC'],
  ...['automountServiceAccountToken', 'readinessProbeMissing', 'livenessProbeMissing', 'imageTagLatest'],
  ...[
    'pullPolicyNotAlways',
    'singleReplica',
    'missingPDB',
    'missingTopologySpread',
    'podHARisk',
    'deprecatedAPIVersion',
  ],
  ...['serviceNoMatchingPods', 'ingressNoMatchingService', 'stuckTerminating', 'cpuRequestMissing'],
  ...[
    'memoryRequestMissing',
    'cpuLimitMissing',
    'memoryLimitMissing',
    'resourceUtilization',
    'orphanConfigMapSecret',
  ],
];

describe('the check catalogue', () => {
  it('has a manifest each check flags and one it passes', () => {
    const uncovered = checks
      .map((c) => c.meta.id)
      .filter((id) => {
        const own = allCases.filter((c) => c.check === id);
        return !own.some(isPositive) || own.every(isPositive);
      });
    expect(uncovered).toEqual([]);
  });

  it('has no case for a check that does not exist', () => {
    expect(allCases.map((c) => c.check).filter((id) => !checkCatalogue.has(id))).toEqual([]);
  });

  it('covers the reference list and every Polaris default check', () => {
    expect(referenceIds.filter((id) => !checkCatalogue.has(id))).toEqual([]);
    const aliases = new Set(checks.flatMap((c) => c.meta.aliases));
    expect(polarisDefaults.filter((id) => !aliases.has(`polaris:${id}`))).toEqual([]);
  });

  it('describes every check fully', () => {
    for (const { meta } of checks) {
      expect(meta.id).toMatch(/^[a-z][A-Za-z]+$/);
      expect(categories).toContain(meta.category);
      for (const text of [meta.title, meta.description, meta.remediation])
        expect(text.length).toBeGreaterThan(5);
      expect(meta.references.length).toBeGreaterThan(0);
      for (const url of meta.references) expect(url).toMatch(/^https:\/\/kubernetes\.io\/docs\//);
      expect(meta.appliesTo.length).toBeGreaterThan(0);
      for (const alias of meta.aliases) expect(alias).toMatch(/^polaris:[A-Za-z]+$/);
    }
  });

  it('lists checks by category and by id', () => {
    expect(checks.map((c) => c.meta.category)).toEqual(
      [...checks].map((c) => c.meta.category).sort((a, b) => categories.indexOf(a) - categories.indexOf(b)),
    );
    expect(checkCatalogue.get('hostIPC')?.aliases).toEqual(['polaris:hostIPCSet']);
    expect(checkCatalogue.size).toBe(checks.length);
  });

  it('refuses two checks with one name, as id or alias', () => {
    const fake = (id: string, aliases: string[]) => ({ meta: { ...checks[0]?.meta, id, aliases } }) as Check;
    expect(() => assertUniqueNames([fake('a', ['polaris:x']), fake('b', [])])).not.toThrow();
    expect(() => assertUniqueNames([fake('a', []), fake('a', [])])).toThrow(
      'audit check name a is used by both a and a',
    );
    expect(() => assertUniqueNames([fake('a', ['polaris:x']), fake('b', ['polaris:x'])])).toThrow(
      'polaris:x',
    );
  });

  it('refuses a description without a check and a check without a description', () => {
    expect(() => assertEveryDescribedCheckExists(checks, ['privileged'])).not.toThrow();
    expect(() => assertEveryDescribedCheckExists(checks, ['privileged', 'gone'])).toThrow(
      'checks without code: gone',
    );
    expect(() => metaFor('unheardOf', ['Pod'])).toThrow(
      'audit check unheardOf is not described in check-meta.json',
    );
  });

  it('renders a Markdown table per category with ids, severities, frameworks and Polaris ids', () => {
    const markdown = catalogueMarkdown();
    expect(markdown.split('\n').filter((line) => line.startsWith('### '))).toEqual(
      categories.map((c) => `### ${c}`),
    );
    for (const { meta } of checks)
      expect(markdown).toContain(`| \`${meta.id}\` | ${meta.title} | ${meta.defaultSeverity} |`);
    expect(markdown).toContain(
      '| `hostIPC` | Host IPC namespace | danger | CIS Kubernetes Benchmark v1.9 5.2.4 (host IPC namespace); NSA/CISA Kubernetes Hardening Guide v1.2: Kubernetes Pod security, Pod security enforcement | `hostIPCSet` |',
    );
    expect(markdown.split('\n').filter((line) => line.startsWith('| `'))).toHaveLength(checks.length);
  });
});

describe('auditing a hardened workload and what goes with it', () => {
  it('finds nothing', () => {
    const owned = (kind: string, uid: string) => [
      { apiVersion: 'apps/v1', kind, name: 'web', uid, controller: true },
    ];
    const web = deployment({
      volumes: [{ name: 'settings', configMap: { name: 'settings' } }],
    });
    const replicaSet = {
      ...web,
      kind: 'ReplicaSet',
      metadata: { ...web.metadata, name: 'web-7d9f', uid: 'rs1', ownerReferences: owned('Deployment', 'd1') },
    };
    const pods = ['node-a', 'node-b'].map((node, i) => {
      const p = readyPod(`web-7d9f-${i}`, node);
      return { ...p, metadata: { ...p.metadata, ownerReferences: owned('ReplicaSet', 'rs1') } };
    });
    const objects = [
      { ...web, metadata: { ...web.metadata, uid: 'd1' } },
      replicaSet,
      ...pods,
      pdb({ maxUnavailable: 1 }, { expectedPods: 2 }),
      networkPolicy({ podSelector: { matchLabels: labels }, policyTypes: ['Ingress', 'Egress'] }),
      service('web'),
      ingress({
        tls: [{ hosts: ['shop.example'], secretName: 'shop-tls' }],
        defaultBackend: { service: { name: 'web', port: { number: 80 } } },
      }),
      object('v1', 'Secret', 'shop-tls', { type: 'kubernetes.io/tls' }),
      object('v1', 'ConfigMap', 'settings', { data: { color: 'blue' } }),
    ];
    const context = createAuditContext(objects, {
      now,
      servedApiVersions: ['v1', 'apps/v1', 'policy/v1', 'networking.k8s.io/v1'],
    });
    expect(objects.flatMap((o) => auditObject(o, context))).toEqual([]);
  });

  it('runs the checks for every kind on any object', () => {
    const deleted = new Date(now - 40 * 60_000).toISOString();
    const stuck = { ...pod(), metadata: { ...pod().metadata, deletionTimestamp: deleted } };
    const findings = auditObject(stuck, createAuditContext([], { now }));
    expect(findings.filter((f) => f.checkId === 'stuckTerminating')).toEqual([
      { checkId: 'stuckTerminating', severity: 'danger', message: 'has been terminating for 40 minutes' },
    ]);
  });
});
