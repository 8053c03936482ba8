import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestAgent, type TestAgent } from '@binnacle/agent/testing';
import { startOidcTestHub } from '@binnacle/hub/testing';
import { hubRoleBindingsLock, repoRoot, schemathesisBinary, testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Both OpenAPI documents fuzzed with schemathesis against the real servers (ADR 0052): every operation gets
 * boundary, invalid and random values from its schemas, with a fixed seed and a bounded number of cases, and any
 * 5xx, any error answer that is not `application/json` `{error, code}` with a catalogue code, and any answer its
 * document does not describe fails the run. Settings, checks and the operations left out (and why) are in
 * test/fuzz/schemathesis.toml; docs/development.md says how to reproduce a failure.
 *
 * The cluster is shared with the other files: the agent reads it as a ServiceAccount bound to the built-in
 * `view` ClusterRole, and while the hub's runs send requests they hold the lock of the hub's role groups, so
 * those groups are bound to nothing and the hub's callers (a member — the least role with a PAT — and the owner)
 * can change no seeded object through an agent.
 */
const cluster = testCluster();
const admin = cluster.kubeConfig('admin');
const seconds = 1000;
/** How long a run through the hub may wait for the files that bind the hub's role groups meanwhile. */
const lockWaitMs = 150 * seconds;

let st: string;
let namespace: { name: string; remove(): Promise<void> };
let agent: TestAgent;
let cloudAgent: TestAgent;
let started: Awaited<ReturnType<typeof startOidcTestHub>>;
let hubUrl: string;
let orgId: string;
let clusterId: string;
let memberPat: { id: string; token: string };
let ownerPat: { id: string; token: string };
let work: string;
const viewRole = () => `${namespace.name}-view`;

interface Fuzz {
  document: 'agent' | 'hub';
  url: string;
  /** The hub PAT every request carries; while such a run sends requests it holds the lock of the hub's role groups. */
  token?: string;
  /** Ids the run stands on: a change naming one names nobody instead (test/fuzz/checks.py). */
  keep?: string[];
  /** Further `st run` options: which operations, how many cases. */
  options?: string[];
  /** Parameters known only at run time, as `location.name = value` lines for the document's project. */
  parameters?: Record<string, string>;
  /** The run's wall-time bound. */
  budgetMs: number;
}

/** Runs schemathesis once; resolves with its exit status, its report and a one-line account of what it did. */
async function fuzz(run: Fuzz): Promise<{ status: number | null; output: string; summary: string }> {
  const base = await readFile(join(repoRoot, 'test/fuzz/schemathesis.toml'), 'utf8');
  const parameters = Object.entries(run.parameters ?? {}).map(([key, value]) => `"${key}" = "${value}"`);
  // The hub's project comes last in the file, so a [project.parameters] table appended here is the hub's.
  const config = join(work, `${run.document}-${Date.now()}.toml`);
  await writeFile(
    config,
    parameters.length ? `${base}\n[project.parameters]\n${parameters.join('\n')}\n` : base,
  );
  const args = [
    '--config-file',
    config,
    'run',
    join(repoRoot, `docs/api/${run.document}-openapi.json`),
    '--url',
    run.url,
    ...(run.token ? ['-H', `Authorization: Bearer ${run.token}`] : []),
    ...(run.options ?? []),
  ];
  const child = spawn(st, args, {
    cwd: repoRoot,
    env: { ...process.env, BINNACLE_FUZZ_KEEP: (run.keep ?? []).join(','), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const startedAt = performance.now();
  const overrun = setTimeout(() => child.kill('SIGKILL'), run.budgetMs);
  const status = await new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  clearTimeout(overrun);
  const elapsed = Math.round((performance.now() - startedAt) / 100) / 10;
  const tested = /Tested: (\d+)/.exec(output)?.[1] ?? '?';
  const cases = /(\d+) generated/.exec(output)?.[1] ?? '?';
  return { status, output, summary: `${tested} operations, ${cases} test cases, ${elapsed} s` };
}

/**
 * One line per failure of schemathesis's report: the operation, what failed, the status, and the `curl` line
 * that reproduces it (the report itself has the bodies and schemas); errors of the tool itself are quoted.
 */
function failureList(output: string): string {
  const lines: string[] = [];
  let operation = '';
  let failure: { what: string; status?: string; curl?: string } | undefined;
  const flush = () => {
    if (failure)
      lines.push(`${operation}: ${failure.what} [${failure.status ?? '-'}]\n    ${failure.curl ?? ''}`);
    failure = undefined;
  };
  const section = output.slice(Math.max(0, output.indexOf('= FAILURES =')));
  for (const raw of section.split('\n')) {
    const line = raw.trim();
    const header = /^_{3,} (.+?) _{3,}$/.exec(line);
    if (header) {
      flush();
      operation = header[1] as string;
    } else if (line.startsWith('- ')) {
      flush();
      failure = { what: line.slice(2) };
    } else if (failure && !failure.status && /^\[\d{3}\]/.test(line)) failure.status = line.slice(1, 4);
    else if (failure && !failure.curl && line.startsWith('curl ')) failure.curl = line.slice(0, 300);
    else if (line.startsWith('= ERRORS =') || line.startsWith('= WARNINGS =')) break;
  }
  flush();
  const errors = output.indexOf('= ERRORS =');
  const tool = errors >= 0 ? `\n${output.slice(errors, errors + 4000)}` : '';
  const shown = lines.length > 150 ? [...lines.slice(0, 150), `… ${lines.length - 150} more`] : lines;
  return `${shown.join('\n')}${tool}`;
}

/** Each run's whole report stays here after the test, for reading a long list of failures. */
const reports = join(tmpdir(), 'binnacle-openapi-fuzz');

async function expectClean(label: string, run: Fuzz) {
  const release = run.token ? await cluster.lock(hubRoleBindingsLock, lockWaitMs) : undefined;
  let result: Awaited<ReturnType<typeof fuzz>>;
  try {
    result = await fuzz(run);
  } finally {
    await release?.();
  }
  const report = join(reports, `${label.replaceAll(' ', '-')}.txt`);
  await mkdir(reports, { recursive: true });
  await writeFile(report, result.output);
  process.stdout.write(`openapi-fuzz ${label}: ${result.summary} (report: ${report})\n`);
  if (run.token) {
    // A run whose credential stopped working midway would have tested nothing but 401s.
    const account = await fetch(`${hubUrl}/api/account`, {
      headers: { authorization: `Bearer ${run.token}` },
    });
    expect(account.status, `${label}: its token no longer works`).toBe(200);
  }
  const killed = result.status === null ? `killed after its budget of ${run.budgetMs / seconds} s\n` : '';
  expect(
    result.status,
    `${label} (${result.summary}; whole report: ${report}):\n${killed}${failureList(result.output)}`,
  ).toBe(0);
}

beforeAll(async () => {
  st = await schemathesisBinary();
  work = await mkdtemp(join(tmpdir(), 'binnacle-fuzz-'));
  namespace = await cluster.namespace('fuzz');
  await admin.makeApiClient(CoreV1Api).createNamespacedServiceAccount({
    namespace: namespace.name,
    body: { metadata: { name: 'viewer' } },
  });
  await admin.makeApiClient(RbacAuthorizationV1Api).createClusterRoleBinding({
    body: {
      metadata: { name: viewRole() },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'viewer', namespace: namespace.name }],
    },
  });
  // Nothing the fuzzer sends may reach past this machine: the code host is a closed loopback port too.
  const offline = { repohostApiUrl: 'http://127.0.0.1:9/unused' };
  started = await startOidcTestHub({ config: { listenAddress: '127.0.0.1' } });
  hubUrl = await started.t.hub.listen();
  const owner = await started.t.signInBreakGlass();
  orgId = owner.orgId;
  const registered = (
    await started.t.request('POST', '/api/clusters', { as: { cookie: owner.cookie }, body: { name: 'fuzz' } })
  ).json<{ id: string; token: string }>();
  clusterId = registered.id;
  [agent, cloudAgent] = await Promise.all([
    startTestAgent({
      config: { ...offline, kubeconfig: await cluster.serviceAccountKubeconfig(namespace.name, 'viewer') },
    }),
    startTestAgent({ config: { ...offline, cloudUrl: hubUrl, clusterToken: registered.token } }),
  ]);
  await waitUntil(
    'the cloud agent’s tunnel',
    () => Promise.resolve(Boolean(started.t.hub.ctx.tunnels.get(clusterId))),
    {
      timeoutMs: 15_000,
      intervalMs: 50,
    },
  );
  // Viewers mint no PATs; a member's is the least a token gets.
  const member = await started.t.addUser('member@example.com', 'member', orgId);
  const mint = async (cookie: string) => {
    const minted = await started.t.request('POST', '/api/pats', { as: { cookie }, body: { name: 'fuzz' } });
    expect(minted.status, minted.body).toBe(201);
    return minted.json<{ id: string; token: string }>();
  };
  [memberPat, ownerPat] = await Promise.all([mint(member.cookie), mint(owner.cookie)]);
}, 180 * seconds);

afterAll(async () => {
  await Promise.all([agent?.close(), cloudAgent?.close()]);
  await started?.close();
  await admin
    .makeApiClient(RbacAuthorizationV1Api)
    .deleteClusterRoleBinding({ name: viewRole() })
    .catch(() => undefined);
  await namespace?.remove();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the OpenAPI documents fuzzed against the real servers', () => {
  it(
    'the agent document, straight to an agent that reads the cluster with the view ClusterRole',
    async () => {
      // About 130 s on two cores beside another file; the budget leaves room for a machine kept busier.
      await expectClean('agent', { document: 'agent', url: agent.url, budgetMs: 300 * seconds });
    },
    310 * seconds,
  );

  it(
    "a sample of the agent's operations through the hub's tunnel, as a member",
    async () => {
      await expectClean('agent through the hub', {
        document: 'agent',
        url: `${hubUrl}/c/${clusterId}`,
        token: memberPat.token,
        keep: [memberPat.id],
        options: ['--include-tag-regex', '^(resources|workloads|pkgmgr|ai|nodes|logs|config)$'],
        budgetMs: 150 * seconds,
      });
    },
    160 * seconds + lockWaitMs,
  );

  it(
    'the hub document as a member, /c/<id>/… included',
    async () => {
      await expectClean('hub as a member', {
        document: 'hub',
        url: hubUrl,
        token: memberPat.token,
        keep: [memberPat.id, clusterId],
        parameters: { 'path.org_id': orgId, 'path.cluster_id': clusterId },
        budgetMs: 150 * seconds,
      });
    },
    160 * seconds + lockWaitMs,
  );

  it(
    'the hub document as the owner',
    async () => {
      await expectClean('hub as the owner', {
        document: 'hub',
        url: hubUrl,
        token: ownerPat.token,
        keep: [ownerPat.id, clusterId],
        parameters: { 'path.org_id': orgId },
        // The owner registers clusters no agent serves (503 cluster_offline by design); the member's run covers
        // /c/<id>/…. SSO setup fetches the issuer it is given: not from a fuzzer (ADR 0052).
        options: ['--exclude-path-regex', '^/c/', '--exclude-name', 'POST /api/orgs/{org_id}/sso/setup'],
        budgetMs: 150 * seconds,
      });
    },
    160 * seconds + lockWaitMs,
  );
});
