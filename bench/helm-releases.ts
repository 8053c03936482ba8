import { gzipSync } from 'node:zlib';
import type { KubeObject } from '@binnacle/common';
import { Pool } from 'undici';
import { parseHelmRepositories } from '../packages/agent/src/config/helm-repositories.ts';
import type { KubeClient } from '../packages/agent/src/kube/client.ts';
import { decodeRelease, type StoredRelease } from '../packages/agent/src/scope/helm-releases.ts';
import { load } from './http-load.ts';
import { createAll, loadCluster } from './load.ts';
import type { BenchResult } from './run.ts';
import { syncedAgent } from './synced-agent.ts';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const round = (value: number) => Math.round(value * 10) / 10;

/** A release Secret as helm writes it: the release JSON gzipped and base64'd (then base64'd again by the API). */
function releaseSecret(
  template: StoredRelease,
  namespace: string,
  name: string,
  version: number,
  newest: boolean,
) {
  const release: StoredRelease = {
    ...template,
    name,
    namespace,
    version,
    info: {
      ...template.info,
      status: newest ? 'deployed' : 'superseded',
      description: newest ? 'Upgrade complete' : 'Superseded',
    },
  };
  const encoded = gzipSync(Buffer.from(JSON.stringify(release))).toString('base64');
  return {
    metadata: {
      name: `sh.helm.release.v1.${name}.v${version}`,
      labels: { name, owner: 'helm', status: release.info?.status ?? '', version: String(version) },
    },
    type: 'helm.sh/release.v1',
    data: { release: Buffer.from(encoded).toString('base64') },
  };
}

/**
 * Stores `releases` releases of `revisions` revisions each (the seeded billing release's content under new names,
 * over ten namespaces) the way helm stores them, directly through the API.
 */
async function createReleases(client: KubeClient, releases: number, revisions: number): Promise<void> {
  const seeded = await client.request<KubeObject>({
    path: '/api/v1/namespaces/demo-billing/secrets/sh.helm.release.v1.billing.v2',
  });
  const template = decodeRelease(seeded);
  const namespaces = Array.from({ length: 10 }, (_, i) => `bench-helm-${i}`);
  for (const name of namespaces)
    await client
      .request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name } } })
      .catch(() => undefined);
  await createAll(
    releases * revisions,
    (i) => {
      const release = Math.floor(i / revisions);
      const version = (i % revisions) + 1;
      const namespace = namespaces[release % namespaces.length] as string;
      return client.request({
        method: 'POST',
        path: `/api/v1/namespaces/${namespace}/secrets`,
        body: releaseSecret(template, namespace, `release-${release}`, version, version === revisions),
      });
    },
    32,
  );
}

/**
 * `npm run bench -- helm-releases [--releases=200] [--revisions=10]`: list and detail latency of Helm releases
 * decoded from their Secrets, and upgrade-check over every release against both chart sources of the local
 * control plane (cold: indexes fetched; warm: from their cache).
 */
export async function helmReleases(args: string[]): Promise<BenchResult> {
  const option = (name: string, fallback: number) =>
    Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
  const releases = option('releases', 200);
  const revisions = option('revisions', 10);
  return loadCluster(0, async (state, client) => {
    const started = performance.now();
    await createReleases(client, releases, revisions);
    log(
      `${releases} releases × ${revisions} revisions stored in ${Math.round(performance.now() - started)} ms`,
    );
    const agent = await syncedAgent(state.kubeconfigs.admin, {
      helmRepositories: state.chartSources.repositories,
    });
    const pool = new Pool(agent.url, { connections: 8 });
    try {
      const measure = (path: string, concurrency: number) =>
        load(pool, { path, concurrency, warmupMs: 1000, durationMs: 5000, maxRequests: 100_000 });
      const list = await measure('/api/pkgmgr/releases', 4);
      const detail = await measure('/api/pkgmgr/releases/bench-helm-3/release-13', 4);
      const values = await measure('/api/pkgmgr/releases/bench-helm-3/release-13/values?all=true', 4);
      const check = async () => {
        const at = performance.now();
        const res = await pool.request({ method: 'GET', path: '/api/pkgmgr/upgrade-check' });
        const body = (await res.body.json()) as { releases: Record<string, { updateAvailable: boolean }> };
        if (res.statusCode !== 200) throw new Error(`upgrade-check answered ${res.statusCode}`);
        return { ms: round(performance.now() - at), checked: Object.keys(body.releases).length };
      };
      // Nothing has asked the sources yet: the first check fetches their indexes (cold), later ones reuse them.
      const coldSources = parseHelmRepositories(agent.agent.ctx.config.helmRepositories).length;
      const cold = await check();
      const warm = [await check(), await check(), await check()].sort((a, b) => a.ms - b.ms)[1] ?? cold;
      const data = {
        releases,
        revisions,
        list,
        detail,
        values,
        upgradeCheck: { cold, warm, sources: coldSources },
      };
      return {
        name: 'helm-releases',
        summary:
          `${releases} releases × ${revisions} revisions: list p50 ${list.p50Ms} ms p99 ${list.p99Ms} ms, ` +
          `detail p50 ${detail.p50Ms} ms p99 ${detail.p99Ms} ms, computed values p50 ${values.p50Ms} ms; ` +
          `upgrade-check of ${cold.checked} releases against ${coldSources} sources ${cold.ms} ms cold, ${warm.ms} ms warm`,
        data,
      };
    } finally {
      await pool.close();
      await agent.close();
    }
  });
}
