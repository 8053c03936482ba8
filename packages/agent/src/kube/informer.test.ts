import { waitUntil } from '@binnacle/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeClient } from './client.ts';
import type { ApiResource } from './discovery.ts';
import { type FakeHandler, fakeApiServer as startFakeApiServer } from './fake-api-server.ts';
import { type CacheEvent, Informer } from './informer.ts';
import { InformerCache } from './informer-cache.ts';

// A fake API server on loopback: the real one cannot be made to expire a watch (410) on demand.
const configmaps: ApiResource = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  singular: 'configmap',
  namespaced: true,
  verbs: ['list', 'watch'],
  shortNames: ['cm'],
  categories: [],
};

const cm = (name: string, rv: string, data: Record<string, string> = {}) => ({
  metadata: {
    name,
    namespace: 'ns',
    resourceVersion: rv,
    managedFields: [{ manager: 'kubectl' }],
    annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"big":true}', keep: 'me' },
  },
  data,
});

let close: (() => Promise<void>) | undefined;

async function fakeApiServer(handler: FakeHandler): Promise<KubeClient> {
  const fake = await startFakeApiServer(handler);
  close = fake.close;
  return fake.client;
}

afterEach(async () => {
  await close?.();
  close = undefined;
});

const crds: ApiResource = {
  ...configmaps,
  group: 'apiextensions.k8s.io',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  namespaced: false,
};

/**
 * A cluster with one established CRD, widgets.example.com, and one Widget. An InformerCache started on `crds`
 * alone stands for one whose discovery ran before the CRD existed: the CRD is in its informer's first LIST,
 * which is no event. `discovery(n)` says what the n-th discovery (from 1) answers: a 503, the API without the
 * Widget kind, or with it.
 */
async function widgetCluster(discovery: (n: number) => 'fails' | 'lags' | 'lists') {
  const kinds: Record<string, [string, string]> = {
    'apiextensions.k8s.io': ['customresourcedefinitions', 'CustomResourceDefinition'],
    'example.com': ['widgets', 'Widget'],
  };
  const groups = (...names: string[]) => ({
    kind: 'APIGroupDiscoveryList',
    items: names.map((name) => {
      const [resource, kind] = kinds[name] ?? [];
      const resources = [{ resource, responseKind: { kind }, scope: 'Cluster', verbs: ['list', 'watch'] }];
      return { metadata: { name }, versions: [{ version: 'v1', resources }] };
    }),
  });
  const discoveries: number[] = [];
  const client = await fakeApiServer((_req, res, url) => {
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/api') return res.end(JSON.stringify(groups()));
    if (url.pathname === '/apis') {
      discoveries.push(Date.now());
      const answer = discovery(discoveries.length);
      if (answer === 'fails') res.statusCode = 503;
      return res.end(
        JSON.stringify(
          answer === 'fails'
            ? { kind: 'Status', code: 503, reason: 'ServiceUnavailable', message: 'down' }
            : groups('apiextensions.k8s.io', ...(answer === 'lists' ? ['example.com'] : [])),
        ),
      );
    }
    if (url.searchParams.get('watch') === '1') return;
    const items =
      url.pathname === '/apis/example.com/v1/widgets'
        ? [{ metadata: { name: 'w', resourceVersion: '3' } }]
        : [
            {
              metadata: { name: 'widgets.example.com', resourceVersion: '2' },
              spec: { group: 'example.com', versions: [{ name: 'v1', served: true }] },
              status: { conditions: [{ type: 'Established', status: 'True' }] },
            },
          ];
    res.end(JSON.stringify({ metadata: { resourceVersion: '3' }, items }));
  });
  return { client, discoveries };
}

/** Polls until `check` holds; the 10 s bound only catches a hang. */
const waitFor = (what: string, check: () => boolean) =>
  waitUntil(what, () => Promise.resolve(check()), { timeoutMs: 10_000, intervalMs: 10 });

describe('Informer', () => {
  it('lists, watches, strips managedFields and last-applied, and relists after 410 Gone', async () => {
    let lists = 0;
    let watches = 0;
    const client = await fakeApiServer((_req, res, url) => {
      res.setHeader('content-type', 'application/json');
      if (url.searchParams.get('watch') !== '1') {
        lists += 1;
        const items =
          lists === 1
            ? [cm('a', '5'), cm('b', '6')]
            : [cm('a', '5'), cm('c', '21'), cm('d', '22', { v: '2' })];
        res.end(JSON.stringify({ metadata: { resourceVersion: lists === 1 ? '10' : '30' }, items }));
        return;
      }
      watches += 1;
      if (watches === 1) {
        expect(url.searchParams.get('resourceVersion')).toBe('10');
        res.write(`${JSON.stringify({ type: 'ADDED', object: cm('d', '11', { v: '1' }) })}\n`);
        res.end(
          `${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', code: 410, message: 'too old resource version' } })}\n`,
        );
        return;
      }
      expect(url.searchParams.get('resourceVersion')).toBe('30');
      // Stays open until the informer stops.
    });
    const events: CacheEvent[] = [];
    const informer = new Informer(client, configmaps, { onEvent: (e) => events.push(e) });
    informer.start();
    await informer.settled;
    await waitFor('the second watch', () => watches === 2);
    informer.stop();
    await client.close();

    expect(events.map((e) => [e.type, e.object.metadata?.name, e.relist])).toEqual([
      ['added', 'd', false],
      ['added', 'c', true],
      ['updated', 'd', true],
      ['deleted', 'b', true],
    ]);
    expect(
      informer
        .list()
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['a', 'c', 'd']);
    const a = informer.get('a', 'ns');
    expect(a?.metadata?.managedFields).toBeUndefined();
    expect(a?.metadata?.annotations).toEqual({ keep: 'me' });
    expect(a).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
  });

  it('asks for the next LIST page as soon as the continue token has arrived, before the page has', async () => {
    const asked: string[] = [];
    let finishFirst: (() => void) | undefined;
    let fellBack = false;
    const client = await fakeApiServer((_req, res, url) => {
      res.setHeader('content-type', 'application/json');
      if (url.searchParams.get('watch') === '1') return; // stays open until the informer stops
      const token = url.searchParams.get('continue') ?? '';
      asked.push(token || 'first');
      if (!token) {
        // The real API server writes the metadata first; this one holds the items back until page 2 is asked for.
        res.write('{"kind":"ConfigMapList","metadata":{"resourceVersion":"7","continue":"page-2"},"items":[');
        finishFirst = () => res.end(`${JSON.stringify(cm('a', '5'))}]}`);
        setTimeout(() => {
          fellBack = finishFirst !== undefined;
          finishFirst?.();
        }, 5000).unref();
        return;
      }
      finishFirst?.();
      finishFirst = undefined;
      res.end(JSON.stringify({ metadata: { resourceVersion: '7' }, items: [cm('b', '6')] }));
    });
    const informer = new Informer(client, configmaps, { onEvent: () => {}, pageSize: 1 });
    informer.start();
    await informer.settled;
    informer.stop();
    expect(asked).toEqual(['first', 'page-2']);
    // Asking for page 2 released page 1, not the fake's fallback.
    expect(fellBack).toBe(false);
    expect(
      informer
        .list()
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['a', 'b']);
  });
});

describe('InformerCache', () => {
  it('answers 503 not_ready for a kind still loading, never an empty list', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    const client = await fakeApiServer((_req, res, url) => {
      res.setHeader('content-type', 'application/json');
      if (url.searchParams.get('watch') === '1') return;
      void released.then(() =>
        res.end(JSON.stringify({ metadata: { resourceVersion: '1' }, items: [cm('a', '1')] })),
      );
    });
    const cache = new InformerCache(client);
    const started = cache.start([configmaps]);
    await waitFor('the core tier syncing', () => cache.tiers()[0]?.state === 'syncing');
    expect(() => cache.list(configmaps)).toThrow(expect.objectContaining({ code: 'not_ready', status: 503 }));
    release();
    await started;
    expect(cache.list(configmaps).map((o) => o.metadata?.name)).toEqual(['a']);
    cache.stop();
    await client.close();
  });

  it('retries at once, instead of at the end of its back-off, when told the API server answers again', async () => {
    const lists: number[] = [];
    const client = await fakeApiServer((_req, res, url) => {
      res.setHeader('content-type', 'application/json');
      if (url.searchParams.get('watch') === '1') return;
      lists.push(Date.now());
      if (lists.length <= 2) {
        res.statusCode = 503;
        res.end(JSON.stringify({ kind: 'Status', code: 503, reason: 'ServiceUnavailable', message: 'down' }));
        return;
      }
      res.end(JSON.stringify({ metadata: { resourceVersion: '1' }, items: [cm('a', '1')] }));
    });
    let failures = 0;
    const cache = new InformerCache(client, {
      log: (_level, message) => {
        if (message.startsWith('informer for')) failures += 1;
      },
    });
    void cache.start([configmaps]);
    // After the second failure (the informer has read the answer once it logs it) the informer waits 1.6–2.4 s.
    await waitFor('the second failed list', () => failures === 2);
    const resumed = Date.now();
    cache.resume();
    await waitFor('the third list', () => lists.length === 3);
    expect((lists[2] ?? 0) - resumed).toBeLessThan(500);
    await waitFor('the ConfigMaps synced', () => cache.kinds()[0]?.state === 'synced');
    cache.stop();
    await client.close();
  });

  it('discovers again, on the back-off, while an established CRD is missing from discovery', async () => {
    // The real API server publishes a new CRD's kind a moment after establishing it, too briefly to catch.
    const { client, discoveries } = await widgetCluster((n) => (n < 2 ? 'lags' : 'lists'));
    const cache = new InformerCache(client);
    await cache.start([crds]);
    await waitFor('the Widget kind watched', () =>
      cache.kinds().some((k) => k.kind === 'Widget' && k.state === 'synced'),
    );
    // A second after the custom tier synced, then again after the back-off's first wait (0.8–1.2 s).
    expect(discoveries).toHaveLength(2);
    expect((discoveries[1] ?? 0) - (discoveries[0] ?? 0)).toBeGreaterThanOrEqual(750);
    expect(cache.tiers().find((t) => t.name === 'custom')).toMatchObject({ kinds: 1, synced: 1 });
    cache.stop();
    await client.close();
  });

  it('retries a failed rediscovery at once when told the API server answers again, logging once each way', async () => {
    const { client, discoveries } = await widgetCluster((n) => (n < 2 ? 'fails' : 'lists'));
    const logged: string[] = [];
    const cache = new InformerCache(client, { log: (_level, message) => void logged.push(message) });
    await cache.start([crds]);
    // The failure is logged before its retry is scheduled, 0.8–1.2 s later by the back-off.
    await waitFor('the failed rediscovery logged', () => logged.some((m) => m.startsWith('rediscovery')));
    const resumed = Date.now();
    cache.resume();
    await waitFor('the Widget kind watched', () =>
      cache.kinds().some((k) => k.kind === 'Widget' && k.state === 'synced'),
    );
    expect((discoveries[1] ?? 0) - resumed).toBeLessThan(500);
    expect(logged.filter((m) => m.startsWith('rediscovery'))).toEqual([
      expect.stringMatching(/^rediscovery after a CRD change failed, retrying with back-off: /),
      'rediscovery after a CRD change succeeded',
    ]);
    cache.stop();
    await client.close();
  });

  it("answers a kind's failed list while it lists again, not 503 not_ready (a refusal is retried every minute)", async () => {
    let lists = 0;
    const client = await fakeApiServer((_req, res, url) => {
      res.setHeader('content-type', 'application/json');
      if (url.searchParams.get('watch') === '1') return;
      lists += 1;
      // The first list fails; the second is held open, as a retry in flight.
      if (lists > 1) return;
      res.statusCode = 500;
      res.end(JSON.stringify({ kind: 'Status', code: 500, reason: 'InternalError', message: 'etcd hiccup' }));
    });
    const cache = new InformerCache(client);
    await cache.start([configmaps]);
    const failure = expect.objectContaining({
      code: 'cluster_error',
      message: expect.stringContaining('500 InternalError'),
    });
    expect(() => cache.list(configmaps)).toThrow(failure);
    cache.resume();
    await waitFor('the retry in flight', () => lists === 2 && cache.kinds()[0]?.state === 'syncing');
    expect(() => cache.list(configmaps)).toThrow(failure);
    cache.stop();
    await client.close();
  });

  it('reports a kind the agent may not list as 403 forbidden and lets the tier finish', async () => {
    const client = await fakeApiServer((_req, res) => {
      res.statusCode = 403;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          kind: 'Status',
          code: 403,
          reason: 'Forbidden',
          message: 'configmaps is forbidden: User "x" cannot list resource "configmaps"',
        }),
      );
    });
    const cache = new InformerCache(client);
    await cache.start([configmaps]);
    expect(cache.tiers()[0]?.state).toBe('synced');
    expect(cache.kinds()[0]).toMatchObject({ state: 'forbidden' });
    expect(() => cache.list(configmaps)).toThrow(
      expect.objectContaining({ code: 'forbidden', message: expect.stringContaining('cannot list') }),
    );
    cache.stop();
    await client.close();
  });
});
