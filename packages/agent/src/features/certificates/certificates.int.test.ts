import { identities, seeded, testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api, CustomObjectsApi, RbacAuthorizationV1Api, type V1Secret } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentsAndNamespace,
  bindInNamespace,
  certFactory,
  certificate,
  ecosystemKinds,
  sendFrom,
  startTestAgent,
  type TestAgent,
  tlsSecret,
} from '../../testing/index.ts';

const cluster = testCluster();
const core = cluster.kubeConfig('admin').makeApiClient(CoreV1Api);
const fixture = agentsAndNamespace('certs');

interface Report {
  items: {
    kind: string;
    namespace: string;
    name: string;
    severity: string;
    daysLeft: number | null;
    problems: string[];
    certificates: { sans: string[] }[];
  }[];
  summary: Record<string, number>;
  certManager: boolean;
}

describe('GET /api/secrets/certificate-expiry', () => {
  it('reads the seeded TLS Secrets: days left and severity from the real certificates', async () => {
    const report = await fixture.agent.json<Report>(
      '/api/secrets/certificate-expiry?namespaces=demo-shop,demo-ops',
    );
    // The full profile serves cert-manager's CRDs (ADR 0127); the seed has no Certificate.
    expect(report.certManager).toBe(true);
    for (const tls of seeded.tlsSecrets) {
      const item = report.items.find((i) => i.namespace === tls.namespace && i.name === tls.name);
      expect(item, tls.name).toMatchObject({
        kind: 'Secret',
        severity: tls.days <= 30 ? 'warning' : 'ok',
        problems: [],
      });
      expect(item?.daysLeft).toBeGreaterThanOrEqual(tls.days - 1);
      expect(item?.daysLeft).toBeLessThanOrEqual(tls.days);
      expect(item?.certificates[0]?.sans).toContain(`DNS:${tls.host}`);
    }
    // Most urgent first: the 10-day certificate before the 90-day one.
    const names = report.items.map((i) => i.name);
    expect(names.indexOf('legacy-api-tls')).toBeLessThan(names.indexOf('storefront-tls'));
  });

  it('answers a Secret whose PEM does not parse as an invalid finding, not an error', async () => {
    await core.createNamespacedSecret({
      namespace: fixture.ns.name,
      body: {
        metadata: { name: 'broken-tls' },
        type: 'kubernetes.io/tls',
        data: {
          'tls.crt': Buffer.from(
            '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n',
          ).toString('base64'),
          'tls.key': Buffer.from('not a key').toString('base64'),
        },
      },
    });
    let report: Report | undefined;
    await waitUntil(
      'the broken Secret in the certificate report',
      async () => {
        report = await fixture.agent.json<Report>(
          `/api/secrets/certificate-expiry?namespace=${fixture.ns.name}`,
        );
        return report.items.length > 0;
      },
      { timeoutMs: 10_000, intervalMs: 250 },
    );
    expect(report?.items).toEqual([
      expect.objectContaining({
        name: 'broken-tls',
        severity: 'invalid',
        problems: expect.arrayContaining([expect.any(String)]),
      }),
    ]);
    expect(report?.summary).toMatchObject({ total: 1, invalid: 1 });
    expect(JSON.stringify(report)).not.toContain('not a key');
  });

  it('refuses a namespace the caller may not list Secrets in (403)', async () => {
    const res = await fixture.restricted.request('/api/secrets/certificate-expiry?namespace=demo-shop');
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toContain(identities.restricted.user);
  });
});

describe('as a signed-in caller (--auth-mode proxy): its TLS Secrets decide, its Certificates join', () => {
  // Three people the agent impersonates, each with a narrow Role of this file's own in the namespace: the API
  // server's RBAC decides what each sees. cert-manager's kinds are not in the built-in roles.
  const proxyAddress = '127.0.0.2';
  const rbac = cluster.kubeConfig('admin').makeApiClient(RbacAuthorizationV1Api);
  const custom = cluster.kubeConfig('admin').makeApiClient(CustomObjectsApi);
  const roles = {
    secrets: { apiGroups: [''], resources: ['secrets'] },
    certificates: { apiGroups: ['cert-manager.io'], resources: ['certificates'] },
  };
  const roleName = (key: string) => `binnacle-test-certs-${key}-${Date.now().toString(36)}`;
  const names = { secrets: roleName('secrets'), certificates: roleName('certificates') };
  const people = {
    tls: 'certs-tls@example.com',
    both: 'certs-both@example.com',
    certificatesOnly: 'certs-cm@example.com',
  };
  let proxied: TestAgent | undefined;
  let unbind: (() => Promise<void>)[] = [];
  const factory = certFactory();
  const ns = () => fixture.ns.name;

  beforeAll(async () => {
    await Promise.all(
      Object.entries(roles).map(([key, rule]) =>
        rbac.createClusterRole({
          body: {
            metadata: { name: names[key as keyof typeof names] },
            rules: [{ ...rule, verbs: ['get', 'list', 'watch'] }],
          },
        }),
      ),
    );
    const user = (name: string) => ({ kind: 'User', name }) as const;
    unbind = await Promise.all([
      bindInNamespace(ns(), user(people.tls), names.secrets),
      bindInNamespace(ns(), user(people.both), names.secrets),
      bindInNamespace(ns(), user(people.both), names.certificates),
      bindInNamespace(ns(), user(people.certificatesOnly), names.certificates),
    ]);
    const { cert, key } = factory.make({ cn: 'shop.example.com', sans: ['DNS:shop.example.com'] });
    await core.createNamespacedSecret({
      namespace: ns(),
      body: tlsSecret('shop-tls', { crt: cert, key }, ns()) as V1Secret,
    });
    await custom.createNamespacedCustomObject({
      ...ecosystemKinds.certificates,
      namespace: ns(),
      body: certificate('shop', { namespace: ns(), secretName: 'shop-tls' }),
    });
    proxied = await startTestAgent({ config: { authMode: 'proxy', authProxyAddresses: proxyAddress } });
  });
  afterAll(async () => {
    factory.dispose();
    await Promise.all([
      ...unbind.map((remove) => remove()),
      proxied?.close(),
      ...Object.values(names).map((name) => rbac.deleteClusterRole({ name }).catch(() => undefined)),
    ]);
  });

  const reportAs = (user: string) =>
    sendFrom(
      proxied as TestAgent,
      `/api/secrets/certificate-expiry?namespace=${ns()}`,
      { 'x-forwarded-user': user },
      proxyAddress,
    );
  /** This describe's items (the file's other tests leave theirs in the namespace). */
  const itemsOf = (body: Record<string, unknown>) =>
    (body.items as { kind: string; name: string; managedBy?: string | null }[])
      .filter((i) => i.name.startsWith('shop'))
      .map((i) => `${i.kind} ${i.name}${i.managedBy ? ` by ${i.managedBy}` : ''}`);

  it('joins the Certificates where the caller may list them, and refuses one without its TLS Secrets (403)', async () => {
    let both: Record<string, unknown> = {};
    await waitUntil(
      'the Certificate in the report of a caller who may list both',
      async () => {
        const answer = await reportAs(people.both);
        both = answer.body;
        return answer.status === 200 && itemsOf(both).includes('Certificate shop');
      },
      { timeoutMs: 15_000, intervalMs: 250 },
    );
    expect(itemsOf(both).sort()).toEqual(['Certificate shop', 'Secret shop-tls by shop']);
    expect(both.certManager).toBe(true);

    const tlsOnly = await reportAs(people.tls);
    expect(tlsOnly.status, JSON.stringify(tlsOnly.body)).toBe(200);
    expect(itemsOf(tlsOnly.body)).toEqual(['Secret shop-tls']);

    const certificatesOnly = await reportAs(people.certificatesOnly);
    expect(certificatesOnly.status).toBe(403);
    expect(String(certificatesOnly.body.error)).toContain(people.certificatesOnly);
  });
});
