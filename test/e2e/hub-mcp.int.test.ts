import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import { startOidcTestHub, testHubUrl } from '@binnacle/hub/testing';
import {
  hubRoleBindingsLock,
  mcpTestClient,
  runInspector,
  signInAtIdp,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * MCP through the hub, every part real: a hub signing people in through a real IdP, three registered
 * clusters — two agents connected over their tunnels to the local control plane, the third stopped — and MCP
 * clients (the SDK's, with its own OAuth flow, and the Inspector's CLI). Access inside the cluster is the
 * cluster's RBAC for the forwarded subjects: the IdP group `/platform-admins` is bound in one namespace; the
 * hub's role groups are bound nowhere (the lock below keeps other files from binding them meanwhile).
 */
const cluster = testCluster();
const admin = cluster.kubeConfig('admin');
const core = admin.makeApiClient(CoreV1Api);
const rbac = admin.makeApiClient(RbacAuthorizationV1Api);

let started: Awaited<ReturnType<typeof startOidcTestHub>>;
let hubUrl: string;
let namespace: { name: string; remove(): Promise<void> };
let releaseLock: (() => Promise<void>) | undefined;
const agents: TestAgent[] = [];
const clusters: Record<'alpha' | 'beta' | 'gamma', string> = { alpha: '', beta: '', gamma: '' };
let adaPat: string;
const clients: Client[] = [];

/** The hub's public name resolves to its loopback listener, as DNS would: URLs and audiences stay the hub's. */
const viaLoopback: typeof fetch = (input, init) =>
  fetch(String(input instanceof Request ? input.url : input).replace(testHubUrl, hubUrl), init);

/**
 * An MCP client's OAuth side as an assistant implements it: a registered public client, PKCE, tokens in
 * memory; "opening the browser" walks the IdP's sign-in as `user` and keeps the code the redirect carries.
 */
class AssistantOAuth implements OAuthClientProvider {
  readonly user: string;
  verifier = '';
  code = '';
  saved?: OAuthTokens;
  authorizationUrl?: URL;
  constructor(user: string) {
    this.user = user;
  }
  get redirectUrl() {
    return mcpTestClient.redirectUri;
  }
  get clientMetadata() {
    return { redirect_uris: [mcpTestClient.redirectUri], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return { client_id: mcpTestClient.clientId };
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
    const callback = new URL(await signInAtIdp(started.idp, url.toString(), this.user));
    this.code = callback.searchParams.get('code') ?? '';
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** Connects an SDK client to an MCP URL of the hub: with a PAT, or through the client's own OAuth flow. */
async function connect(path: string, credential: { pat: string } | { oauth: AssistantOAuth }) {
  const url = new URL(`${testHubUrl}${path}`);
  const options =
    'pat' in credential
      ? { fetch: viaLoopback, requestInit: { headers: { authorization: `Bearer ${credential.pat}` } } }
      : { fetch: viaLoopback, authProvider: credential.oauth };
  const client = new Client({ name: 'binnacle-hub-test', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(url, options));
  } catch (error) {
    if (!(error instanceof UnauthorizedError) || !('oauth' in credential)) throw error;
    // The redirect happened (the IdP's sign-in was walked); the transport trades the code for tokens.
    const transport = new StreamableHTTPClientTransport(url, options);
    await transport.finishAuth(credential.oauth.code);
    await client.connect(transport);
  }
  clients.push(client);
  return client;
}

type Content = { type: string; text: string }[];
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return {
    isError: result.isError === true,
    text: (result.content as Content).map((c) => c.text).join('\n'),
  };
}

const hubFetch = (path: string, init: RequestInit = {}) => fetch(`${hubUrl}${path}`, init);

beforeAll(async () => {
  releaseLock = await cluster.lock(hubRoleBindingsLock);
  started = await startOidcTestHub({ config: { listenAddress: '127.0.0.1' } });
  hubUrl = await started.t.hub.listen();
  started.idp.groups.set('ada', ['/platform-admins']);
  const ada = (await started.t.signInOidc(started.idp, 'ada')).cookie;
  adaPat = (
    await started.t.request('POST', '/api/pats', { as: { cookie: ada }, body: { name: 'assistant' } })
  ).json<{ token: string }>().token;
  namespace = await cluster.namespace('hub-mcp');
  await core.createNamespacedConfigMap({
    namespace: namespace.name,
    body: { metadata: { name: 'greeting' }, data: { message: 'hello' } },
  });
  await rbac.createNamespacedRole({
    namespace: namespace.name,
    body: {
      metadata: { name: 'assistant' },
      rules: [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'patch'] },
        { apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'] },
        { apiGroups: [''], resources: ['services'], verbs: ['get', 'list', 'watch', 'patch'] },
        { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['list'] },
      ],
    },
  });
  await core.createNamespacedPod({
    namespace: namespace.name,
    body: {
      metadata: { name: 'app', labels: { run: 'app' } },
      spec: { containers: [{ name: 'main', image: 'ghcr.io/acme/app:1.0' }] },
    },
  });
  await core.createNamespacedService({
    namespace: namespace.name,
    body: { metadata: { name: 'app' }, spec: { selector: { run: 'app' }, ports: [{ port: 80 }] } },
  });
  await rbac.createNamespacedRoleBinding({
    namespace: namespace.name,
    body: {
      metadata: { name: 'platform-admins' },
      subjects: [
        { kind: 'Group', name: 'binnacle:idp:/platform-admins', apiGroup: 'rbac.authorization.k8s.io' },
      ],
      roleRef: { kind: 'Role', name: 'assistant', apiGroup: 'rbac.authorization.k8s.io' },
    },
  });
  for (const name of ['alpha', 'beta', 'gamma'] as const) {
    const registered = (
      await started.t.request('POST', '/api/clusters', { as: { cookie: ada }, body: { name } })
    ).json<{ id: string; token: string }>();
    clusters[name] = registered.id;
    agents.push(await startTestAgent({ config: { cloudUrl: hubUrl, clusterToken: registered.token } }));
  }
  const { tunnels } = started.t.hub.ctx;
  await waitUntil(
    'the tunnels of alpha, beta and gamma',
    () => Promise.resolve(Object.values(clusters).every((id) => tunnels.get(id))),
    { timeoutMs: 15_000, intervalMs: 50 },
  );
  // gamma's agent stops: the hub knows the cluster, its tunnel is gone.
  await agents.pop()?.close();
  await waitUntil('gamma’s tunnel gone', () => Promise.resolve(!tunnels.get(clusters.gamma)), {
    timeoutMs: 15_000,
    intervalMs: 50,
  });
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const agent of agents) await agent.close();
  await started?.close();
  await namespace?.remove();
  await releaseLock?.();
});

describe('MCP through the hub', () => {
  it('answers 401 with a challenge naming the resource metadata, which names the IdP', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} };
    for (const resource of [
      '/mcp',
      `/c/${clusters.alpha}/mcp`,
      '/mcp-readonly',
      `/c/${clusters.alpha}/mcp-readonly`,
    ]) {
      const answer = await hubFetch(resource, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(initialize),
      });
      expect(answer.status).toBe(401);
      const metadataUrl = `${testHubUrl}/.well-known/oauth-protected-resource${resource}`;
      expect(answer.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
      const metadata = await (await viaLoopback(metadataUrl)).json();
      expect(metadata).toMatchObject({
        resource: `${testHubUrl}${resource}`,
        authorization_servers: [started.idp.issuer],
        bearer_methods_supported: ['header'],
      });
    }
    const badToken = await hubFetch('/mcp', {
      method: 'POST',
      headers: { authorization: 'Bearer a.b.c', 'content-type': 'application/json' },
      body: JSON.stringify(initialize),
    });
    expect(badToken.status).toBe(401);
    expect(badToken.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await hubFetch('/.well-known/oauth-protected-resource/c/..%2Fx/mcp')).status).toBe(400);
  });

  it("/c/<id>/mcp with a PAT: the agent's tools, as the user without IdP groups", async () => {
    const client = await connect(`/c/${clusters.alpha}/mcp`, { pat: adaPat });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['get_dashboard', 'list_resources', 'drain_fit', 'patch_resource']),
    );
    const namespaces = await call(client, 'list_namespaces');
    expect(namespaces.isError, namespaces.text).toBe(false);
    // A PAT never carries IdP groups, so the binding for /platform-admins does not apply.
    const denied = await call(client, 'list_resources', { kind: 'configmaps', namespace: namespace.name });
    expect(denied.isError).toBe(true);
    expect(denied.text).toMatch(/^forbidden: /);
    // The drain fit reads every node and pod as the caller, so it asks for the right to list them cluster-wide.
    const fit = await call(client, 'drain_fit', { nodes: ['kwok-node-0'] });
    expect(fit.text).toMatch(/^forbidden: binnacle:user:ada@example\.com cannot list nodes cluster-wide/);
    const write = await call(client, 'patch_resource', {
      kind: 'configmap',
      name: 'greeting',
      namespace: namespace.name,
      patch: '{"data":{"message":"from a PAT"}}',
    });
    expect(write.isError).toBe(true);
    expect(write.text).toMatch(/^forbidden: .*binnacle:user:ada@example\.com/);
  });

  it('refuses a client without the Accept header MCP requires with 406 {error, code}, on /mcp and /c/<id>/mcp', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    };
    for (const resource of [
      '/mcp',
      `/c/${clusters.alpha}/mcp`,
      '/mcp-readonly',
      `/c/${clusters.alpha}/mcp-readonly`,
    ]) {
      const answer = await hubFetch(resource, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${adaPat}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify(initialize),
      });
      expect(answer.status, resource).toBe(406);
      expect(await answer.json(), resource).toEqual({
        error: expect.stringContaining('text/event-stream'),
        code: 'not_acceptable',
      });
    }
  });

  it('/c/<id>/mcp with an access token from its own OAuth flow: the groups in the token decide RBAC', async () => {
    const oauth = new AssistantOAuth('ada');
    const client = await connect(`/c/${clusters.alpha}/mcp`, { oauth });
    expect(oauth.authorizationUrl?.searchParams.get('resource')).toBe(
      `${testHubUrl}/c/${clusters.alpha}/mcp`,
    );
    const listed = await call(client, 'list_resources', { kind: 'configmaps', namespace: namespace.name });
    expect(listed.isError, listed.text).toBe(false);
    expect(listed.text).toContain('greeting');
    const patched = await call(client, 'patch_resource', {
      kind: 'configmap',
      name: 'greeting',
      namespace: namespace.name,
      patch: '{"data":{"message":"hi from the hub"}}',
    });
    expect(patched.isError, patched.text).toBe(false);
    const configMap = await core.readNamespacedConfigMap({ name: 'greeting', namespace: namespace.name });
    expect(configMap.data?.message).toBe('hi from the hub');
    // Not allowed by the Role: deleting through apply of another kind is refused with the API server's reason.
    const secret = await call(client, 'list_resources', { kind: 'secrets', namespace: namespace.name });
    expect(secret.isError).toBe(true);
    expect(secret.text).toMatch(/^forbidden: /);
    // The token is for alpha's MCP resource only.
    const token = oauth.saved?.access_token as string;
    for (const path of [`/c/${clusters.beta}/mcp`, '/api/account']) {
      const other = await hubFetch(path, {
        method: path.endsWith('/mcp') ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: path.endsWith('/mcp') ? '{}' : undefined,
      });
      expect(other.status, path).toBe(401);
    }
  });

  it("the Inspector's CLI lists and calls tools at /c/<id>/mcp with the user's access token", async () => {
    const oauth = new AssistantOAuth('ada');
    await connect(`/c/${clusters.beta}/mcp`, { oauth });
    const url = `${hubUrl}/c/${clusters.beta}/mcp`;
    const credential = ['--header', `Authorization: Bearer ${oauth.saved?.access_token}`];
    const listed = await runInspector([url, '--transport', 'http', ...credential, '--method', 'tools/list']);
    expect(listed.code, listed.stderr).toBe(0);
    // The stream the client opens after initializing is refused as stateless (405), not as forbidden: a 403 there
    // made the CLI drop the connection and print an empty list whenever it arrived before the list was asked for.
    expect(listed.stderr).toMatch(/^http: GET \/c\/[^/]+\/mcp → 405$/m);
    const names = (listed.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names, `${listed.stdout}\n${listed.stderr}`).toEqual(
      expect.arrayContaining(['get_dashboard', 'list_resources', 'patch_resource']),
    );
    const called = await runInspector([
      url,
      '--transport',
      'http',
      ...credential,
      '--method',
      'tools/call',
      '--tool-name',
      'list_resources',
      '--tool-arg',
      'kind=configmaps',
      `namespace=${namespace.name}`,
    ]);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.stringify(called.result)).toContain('greeting');
    const anonymous = await runInspector([url, '--transport', 'http', '--method', 'tools/list']);
    expect(anonymous.code).not.toBe(0);
  });

  it('/mcp fans out to the connected clusters, names the stopped one, and routes a call naming a cluster', async () => {
    const client = await connect('/mcp', { oauth: new AssistantOAuth('ada') });
    const tools = (await client.listTools()).tools;
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('list_clusters')).toBeDefined();
    expect(byName.get('list_resources')?.inputSchema.properties).toHaveProperty('cluster');
    expect(byName.get('patch_resource')?.inputSchema.required).toContain('cluster');

    const listedClusters = JSON.parse((await call(client, 'list_clusters')).text) as {
      name: string;
      connected: boolean;
    }[];
    expect(listedClusters.map((c) => [c.name, c.connected])).toEqual([
      ['alpha', true],
      ['beta', true],
      ['gamma', false],
    ]);

    const all = await call(client, 'list_resources', { kind: 'configmaps', namespace: namespace.name });
    expect(all.isError, all.text).toBe(false);
    const merged = JSON.parse(all.text) as {
      clusters: { name: string; answer: unknown }[];
      errors: { cluster: { name: string }; code: string }[];
    };
    expect(merged.clusters.map((c) => c.name)).toEqual(['alpha', 'beta']);
    for (const part of merged.clusters) expect(JSON.stringify(part.answer)).toContain('greeting');
    expect(merged.errors).toEqual([
      expect.objectContaining({
        cluster: expect.objectContaining({ name: 'gamma' }),
        code: 'cluster_offline',
      }),
    ]);

    const one = await call(client, 'list_resources', {
      cluster: 'beta',
      kind: 'configmaps',
      namespace: namespace.name,
    });
    expect(one.isError, one.text).toBe(false);
    expect(one.text).toContain('greeting');
    expect(one.text).not.toContain('"clusters"');

    // The hub's own compare reads one side in each cluster it names: here the same ConfigMap through both.
    const sides = {
      kind: 'configmap',
      left: `${namespace.name}/greeting`,
      right: `${namespace.name}/greeting`,
    };
    const compared = await call(client, 'compare_across_clusters', {
      ...sides,
      left_cluster: 'alpha',
      right_cluster: 'beta',
    });
    expect(compared.isError, compared.text).toBe(false);
    expect(JSON.parse(compared.text)).toMatchObject({
      kind: 'ConfigMap',
      left: { cluster: { name: 'alpha' }, name: 'greeting' },
      right: { cluster: { name: 'beta' }, name: 'greeting' },
      identical: true,
    });
    const missing = await call(client, 'compare_across_clusters', {
      ...sides,
      right: `${namespace.name}/nothing-here`,
      left_cluster: 'alpha',
      right_cluster: 'beta',
    });
    expect(missing).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^not_found: right: .*nothing-here/),
    });
    const malformed = await call(client, 'compare_across_clusters', {
      ...sides,
      left: 'greeting',
      left_cluster: 'alpha',
      right_cluster: 'beta',
    });
    expect(malformed).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^invalid_request: \/left /),
    });

    await expect(
      client.callTool({
        name: 'patch_resource',
        arguments: { kind: 'configmap', name: 'greeting', patch: '{}' },
      }),
    ).rejects.toThrow(/cluster: required/);
    await expect(
      client.callTool({ name: 'list_namespaces', arguments: { cluster: 'delta' } }),
    ).rejects.toThrow(/cluster: no cluster "delta"/);
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/unknown tool/);
  });

  it('/mcp-readonly offers only the read tools and changes nothing, though the caller may change it through /mcp', async () => {
    const readerAuth = new AssistantOAuth('ada');
    const reader = await connect('/mcp-readonly', { oauth: readerAuth });
    const tools = (await reader.listTools()).tools;
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_clusters', 'get_resource']));
    expect(tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name)).toEqual([]);
    const patch = (message: string) => ({
      cluster: 'alpha',
      kind: 'configmap',
      name: 'greeting',
      namespace: namespace.name,
      patch: JSON.stringify({ data: { message } }),
    });
    // Named anyway, the write reaches the agent's read-only endpoint, which has no such tool.
    const refused = await call(reader, 'patch_resource', patch('through the read-only endpoint'));
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/Tool patch_resource not found/);
    // The same person may patch it (her IdP group's Role): through /mcp the write goes through.
    const full = await connect('/mcp', { oauth: new AssistantOAuth('ada') });
    const written = await call(full, 'patch_resource', patch('through /mcp'));
    expect(written.isError, written.text).toBe(false);
    const message = async () =>
      (await core.readNamespacedConfigMap({ name: 'greeting', namespace: namespace.name })).data?.message;
    expect(await message()).toBe('through /mcp');
    // Reads answer through the read-only endpoint, as the caller.
    const read = await call(reader, 'get_resource', {
      cluster: 'alpha',
      kind: 'configmap',
      name: 'greeting',
      namespace: namespace.name,
    });
    expect(read.isError, read.text).toBe(false);
    expect(read.text).toContain('greeting');
    // The what-if of a NetworkPolicy reads too: it reaches the cluster named, as the caller (no traffic source
    // there: the flows part says why, the namespace's reachability is still judged).
    const denyAll = `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: deny, namespace: ${namespace.name}}\nspec: {podSelector: {}}\n`;
    const whatIf = await call(reader, 'network_policy_impact', { cluster: 'alpha', yaml: denyAll });
    expect(whatIf.isError, whatIf.text).toBe(false);
    expect(JSON.parse(whatIf.text)).toMatchObject({
      traffic: { available: false },
      matrices: [{ namespace: namespace.name }],
    });
    // Its route through the tunnel, with a PAT: the PAT carries no IdP groups, so the cluster's RBAC refuses her.
    const tunneled = await hubFetch(`/c/${clusters.alpha}/api/network-policies/impact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adaPat}`, 'content-type': 'application/json' },
      body: JSON.stringify({ yaml: denyAll }),
    });
    expect(tunneled.status).toBe(403);
    expect(await tunneled.json()).toMatchObject({
      code: 'forbidden',
      error: expect.stringContaining(`cannot list pods in namespace ${namespace.name}`),
    });
    // A token minted for the read-only endpoint opens nothing else: /mcp refuses it.
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} };
    const elsewhere = await hubFetch('/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${readerAuth.saved?.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(initialize),
    });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // One cluster's own read-only endpoint, through the tunnel: the same read tools.
    const one = await connect(`/c/${clusters.alpha}/mcp-readonly`, { pat: adaPat });
    expect((await one.listTools()).tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
  });

  it("answers a selection impact through the hub's read-only MCP and the tunnel, as the caller", async () => {
    const service = (selector: string) =>
      `apiVersion: v1\nkind: Service\nmetadata: { name: app, namespace: ${namespace.name} }\nspec: { selector: { run: ${selector} }, ports: [{ port: 80 }] }\n`;
    const lostPods = (answer: {
      changes: { kind: string; name: string; lost: { pods: { name: string }[] } }[];
    }) => answer.changes.map((c) => `${c.kind} ${c.name}: ${c.lost.pods.map((p) => p.name).join(',')}`);
    const reader = await connect('/mcp-readonly', { oauth: new AssistantOAuth('ada') });
    const answer = await call(reader, 'selection_impact', { cluster: 'alpha', yaml: service('other') });
    expect(answer.isError, answer.text).toBe(false);
    expect(lostPods(JSON.parse(answer.text))).toEqual(['Service app: app']);
    // Through the tunnel with a PAT, which carries no IdP group: the Role does not apply, so the agent's dry run
    // as the user is refused by the API server.
    const tunneled = await hubFetch(`/c/${clusters.alpha}/api/selection-impact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adaPat}`, 'content-type': 'application/json' },
      body: JSON.stringify({ yaml: service('other') }),
    });
    expect(tunneled.status).toBe(403);
    expect(await tunneled.json()).toMatchObject({
      code: 'forbidden',
      error: expect.stringContaining('services "app" is forbidden'),
    });
    // Nothing was written.
    const live = await core.readNamespacedService({ name: 'app', namespace: namespace.name });
    expect(live.spec?.selector).toEqual({ run: 'app' });
  });

  it('a catastrophic grep through /mcp reaches every cluster and freezes none (issue 37)', async () => {
    const pod = { namespace: namespace.name, name: 'app' };
    await waitUntil(
      'the pod running',
      async () => (await core.readNamespacedPod(pod)).status?.phase === 'Running',
      { timeoutMs: 30_000 },
    );
    const client = await connect('/mcp', { oauth: new AssistantOAuth('ada') });
    const latencies: number[] = [];
    let attacking = true;
    const poll = (async () => {
      while (attacking) {
        for (const agent of agents) {
          const start = performance.now();
          await (await fetch(`${agent.url}/api/health`)).arrayBuffer();
          latencies.push(performance.now() - start);
        }
        // Paces the probe (not a wait for anything): the agents' health asked every 10 ms while the call runs.
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const answer = await call(client, 'get_pod_logs', {
      ...pod,
      tail_lines: 2000,
      grep: '^(.?){18}.{18}#',
    }).finally(() => {
      attacking = false;
    });
    await poll;
    expect(answer.isError, answer.text).toBe(false);
    const merged = JSON.parse(answer.text) as { clusters: { name: string; answer: string }[] };
    expect(merged.clusters.map((c) => c.name)).toEqual(['alpha', 'beta']);
    for (const part of merged.clusters) expect(part.answer).toMatch(/; 0 lines matching \//);
    expect(latencies.length).toBeGreaterThan(0);
    expect(Math.max(...latencies)).toBeLessThan(1_000);
  });

  it('the 31st fan-out call in a minute is 429 with Retry-After; a call naming a cluster is not counted', async () => {
    const bob = (await started.t.signInOidc(started.idp, 'bob')).cookie;
    const bobPat = (
      await started.t.request('POST', '/api/pats', { as: { cookie: bob }, body: { name: 'assistant' } })
    ).json<{ token: string }>().token;
    const post = (args: Record<string, unknown>) =>
      hubFetch('/mcp', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bobPat}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'list_namespaces', arguments: args },
        }),
      });
    for (let n = 1; n <= 30; n++) expect((await post({})).status, `call ${n}`).toBe(200);
    const limited = await post({});
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ code: 'rate_limited' });
    expect((await post({ cluster: 'alpha' })).status).toBe(200);
    started.t.clock.advance(61_000);
    expect((await post({})).status).toBe(200);
  });
});
