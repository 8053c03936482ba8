import { identities, seeded, testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { agentsAndNamespace } from '../../testing/index.ts';

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
