import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import { webDist } from '@binnacle/common/server';
import { startTestHub, type TestHub } from '@binnacle/hub/testing';
import { testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstPageJs, firstPageJsBudget } from '../../packages/web/scripts/precompress.ts';

/**
 * Answers compressed as the client accepts (issue 38, ADR 0058), on the agent, on the hub, and through the
 * hub's tunnel, which relays the agent's compressed bytes as they are: the UI's precompressed assets and JSON
 * over 1 KB in brotli, gzip or as they are per Accept-Encoding, the same bytes once decoded; SSE, downloads
 * and small answers never compressed.
 */
const cluster = testCluster();
let hub: TestHub;
let hubUrl: string;
let agent: TestAgent;
let cloudAgent: TestAgent;
let clusterId: string;
/** The organisation owner's session: the tunnel's cluster identity may download a pod's files. */
let owner: string;
let ns: { name: string; remove: () => Promise<void> };
let tree: string;
const pod = 'files';

beforeAll(async () => {
  hub = await startTestHub({ config: { port: 0, listenAddress: '127.0.0.1' } });
  await hub.hub.listen();
  hubUrl = `http://127.0.0.1:${(hub.hub.app.server.address() as AddressInfo).port}`;
  const signedIn = await hub.signInBreakGlass();
  owner = `${hub.cookieName}=${signedIn.cookie}`;
  const created = (
    await hub.request('POST', '/api/clusters', { as: { cookie: signedIn.cookie }, body: { name: 'wire' } })
  ).json<{ id: string; token: string }>();
  clusterId = created.id;
  [agent, cloudAgent, ns] = await Promise.all([
    startTestAgent(),
    startTestAgent({ config: { cloudUrl: hubUrl, clusterToken: created.token } }),
    cluster.namespace('wire'),
  ]);
  await cluster
    .kubeConfig()
    .makeApiClient(CoreV1Api)
    .createNamespacedPod({
      namespace: ns.name,
      body: { metadata: { name: pod }, spec: { containers: [{ name: 'main', image: 'busybox:1.37' }] } },
    });
  // kwok runs a pod's exec (the download's tar) on this host: a host directory is the container's tree.
  tree = await mkdtemp(join(tmpdir(), 'binnacle-wire-'));
  await writeFile(join(tree, 'notes.txt'), 'the same line again and again\n'.repeat(2000));
  await waitUntil(
    'the agent to connect and the pod to run',
    async () => {
      if (!hub.hub.ctx.tunnels.get(clusterId)) return false;
      const res = await agent.request(`/api/resources/pods/${ns.name}/${pod}`);
      return (
        res.ok &&
        ((await res.json()) as { resource: { status: { phase: string } } }).resource.status.phase ===
          'Running'
      );
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
}, 120_000);

afterAll(async () => {
  await Promise.all([
    agent?.close(),
    cloudAgent?.close(),
    ns?.remove(),
    tree && rm(tree, { recursive: true }),
  ]);
  await hub?.close();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as they came over the wire. */
  body: Buffer;
}

/** A GET over a real socket that keeps the bytes as sent (fetch would decode them). */
function get(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const decoded = (answer: Answer): Buffer => {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.body);
  if (coding === 'gzip') return gunzipSync(answer.body);
  expect(coding).toBeUndefined();
  return answer.body;
};

/** The same path on the agent, on the hub itself (its own routes) and through the hub's tunnel. */
const servers = () => ({
  agent: { base: agent.url, headers: {} },
  tunnel: { base: `${hubUrl}/c/${clusterId}`, headers: { cookie: owner } },
});

/** Accept-Encoding as a browser or a client sends it, and the coding the servers must choose. */
const negotiations = [
  ['gzip, deflate, br, zstd', 'br'],
  ['gzip, deflate', 'gzip'],
  ['br;q=0.5, gzip;q=0.9', 'gzip'],
  ['identity', undefined],
  ['', undefined],
] as const;

/**
 * Asks for `path` in every negotiation: each answer is in the coding the request accepts, varies on
 * Accept-Encoding, and decodes to what the identity answer carries.
 */
async function expectNegotiated(
  base: string,
  path: string,
  headers: Record<string, string>,
  same: (a: Buffer, b: Buffer) => void,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const [accept, coding] of negotiations) {
    const answer = await get(`${base}${path}`, {
      ...headers,
      ...(accept ? { 'accept-encoding': accept } : {}),
    });
    expect(answer.status, `${base}${path} ${accept}: ${answer.body.toString().slice(0, 200)}`).toBe(200);
    expect(answer.headers['content-encoding'], `${path} ${accept}`).toBe(coding);
    expect(answer.headers.vary?.toLowerCase()).toContain('accept-encoding');
    // Compressing keeps what the answer says about caching: API answers stay no-store in every coding.
    if (path.startsWith('/api/'))
      expect(answer.headers['cache-control'], `${path} ${accept}`).toBe('no-store');
    answers.push(answer);
  }
  const plain = decoded(answers.at(-1) as Answer);
  for (const answer of answers) same(decoded(answer), plain);
  return answers;
}

const identical = (a: Buffer, b: Buffer) => expect(a.equals(b)).toBe(true);

describe("the web UI's assets", () => {
  it('load the first page in one script, within its budget (ADR 0102, 0058)', async () => {
    const first = await firstPageJs(webDist);
    expect(first.files).toEqual([expect.stringMatching(/^assets\/index-[\w-]+\.js$/)]);
    expect(first.gzip).toBeLessThanOrEqual(firstPageJsBudget);
  });

  it('are sent precompressed as negotiated, the built file once decoded, on the agent, the hub and the tunnel', async () => {
    const html = await readFile(join(webDist, 'index.html'), 'utf8');
    const script = /src="\.\/(assets\/index-[^"]+\.js)"/.exec(html)?.[1];
    expect(script, 'the web UI is built (npm run build -w @binnacle/web)').toBeDefined();
    const file = await readFile(join(webDist, script as string));
    for (const { base, headers } of [...Object.values(servers()), { base: hubUrl, headers: {} }]) {
      const answers = await expectNegotiated(base, `/${script}`, headers, identical);
      expect(decoded(answers[0] as Answer).equals(file)).toBe(true);
      // The build's brotli copy itself (quality 11), not one made per request.
      expect((answers[0] as Answer).body.equals(await readFile(join(webDist, `${script}.br`)))).toBe(true);
      expect((answers[0] as Answer).headers['cache-control']).toContain('immutable');
    }
  });
});

describe('JSON answers over 1 KB', () => {
  it('are compressed on the fly as negotiated: the OpenAPI documents of the agent (direct, tunneled) and of the hub', async () => {
    for (const { base, headers } of [...Object.values(servers()), { base: hubUrl, headers: {} }]) {
      const answers = await expectNegotiated(base, '/api/openapi.json', headers, identical);
      expect((answers[0] as Answer).body.length).toBeLessThan(decoded(answers[0] as Answer).length / 4);
    }
  });

  it('are compressed as they stream: the resource list', async () => {
    for (const { base, headers } of Object.values(servers())) {
      await expectNegotiated(base, '/api/resources/namespaces?summary=true', headers, (a, b) =>
        expect(JSON.parse(a.toString()).items.length).toBe(JSON.parse(b.toString()).items.length),
      );
    }
  });
});

describe('never compressed', () => {
  it('small answers: /api/health', async () => {
    for (const { base, headers } of Object.values(servers())) {
      const answer = await get(`${base}/api/health`, { ...headers, 'accept-encoding': 'br, gzip' });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBeUndefined();
      JSON.parse(answer.body.toString());
    }
  });

  it('SSE: the first event arrives at once, as it is', async () => {
    for (const { base, headers } of Object.values(servers())) {
      const first = await new Promise<{ headers: http.IncomingHttpHeaders; text: string }>(
        (resolve, reject) => {
          const request = http.get(
            `${base}/api/events/stream`,
            { headers: { ...headers, accept: 'text/event-stream', 'accept-encoding': 'br, gzip' } },
            (res) => {
              let text = '';
              res.on('data', (chunk: Buffer) => {
                text += chunk.toString();
                // A compressor would hold the event back until its window fills, or send bytes that are not text.
                if (text.includes('\n\n')) {
                  resolve({ headers: res.headers, text });
                  request.destroy();
                }
              });
            },
          );
          request.on('error', reject);
        },
      );
      expect(first.headers['content-type']).toContain('text/event-stream');
      expect(first.headers['content-encoding']).toBeUndefined();
      expect(first.text).toMatch(/^event: hello\n/m);
    }
  });

  it("a pod's files downloaded as a tar", async () => {
    const path = `/api/pods/${ns.name}/${pod}/files/download?path=${encodeURIComponent(join(tree, 'notes.txt'))}`;
    for (const { base, headers } of Object.values(servers())) {
      const answer = await get(`${base}${path}`, { ...headers, 'accept-encoding': 'br, gzip' });
      expect(answer.status, answer.body.toString().slice(0, 200)).toBe(200);
      expect(answer.headers['content-type']).toBe('application/x-tar');
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.body.toString('latin1')).toContain('the same line again and again\n'.repeat(100));
    }
  });
});
