import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeRelease, latestRevisions, summarizeRelease } from './helm-releases.ts';

/** Builds a release Secret the way Helm writes one: JSON → gzip → base64, then base64 again in Secret data. */
function releaseSecret(name: string, revision: number, status: string, gzip = true) {
  const release = {
    name,
    namespace: 'apps',
    version: revision,
    info: { status, description: `Upgrade to ${revision}`, last_deployed: '2026-11-01T10:00:00Z' },
    chart: { metadata: { name: 'web', version: `1.${revision}.0`, appVersion: '2.0' } },
  };
  const json = Buffer.from(JSON.stringify(release));
  const helm = (gzip ? gzipSync(json) : json).toString('base64');
  return {
    metadata: {
      name: `sh.helm.release.v1.${name}.v${revision}`,
      namespace: 'apps',
      uid: `${name}-${revision}`,
      labels: { owner: 'helm', name, version: String(revision), status },
    },
    type: 'helm.sh/release.v1',
    data: { release: Buffer.from(helm).toString('base64') },
  };
}

describe('Helm release Secrets', () => {
  it('decode gzipped and plain releases', () => {
    expect(decodeRelease(releaseSecret('a', 3, 'deployed')).chart?.metadata?.version).toBe('1.3.0');
    expect(decodeRelease(releaseSecret('a', 2, 'superseded', false)).info?.status).toBe('superseded');
  });

  it('pick the newest revision of each release from labels', () => {
    const secrets = [
      releaseSecret('a', 1, 'superseded'),
      releaseSecret('a', 10, 'deployed'),
      releaseSecret('a', 9, 'superseded'),
      releaseSecret('b', 1, 'failed'),
      { metadata: { name: 'not-helm', namespace: 'apps' }, type: 'Opaque', data: {} },
    ];
    const latest = latestRevisions(secrets).map((s) => summarizeRelease(decodeRelease(s)));
    expect(latest).toEqual([
      {
        name: 'a',
        namespace: 'apps',
        revision: 10,
        status: 'deployed',
        chart: 'web',
        chartVersion: '1.10.0',
        appVersion: '2.0',
        updated: '2026-11-01T10:00:00Z',
        description: 'Upgrade to 10',
      },
      {
        name: 'b',
        namespace: 'apps',
        revision: 1,
        status: 'failed',
        chart: 'web',
        chartVersion: '1.1.0',
        appVersion: '2.0',
        updated: '2026-11-01T10:00:00Z',
        description: 'Upgrade to 1',
      },
    ]);
  });
});
