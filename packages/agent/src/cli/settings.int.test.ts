import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mapConcurrently } from '@binnacle/common';
import { freePort, killBinnacles, runBinnacle } from '@binnacle/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentOptions } from '../config/options.ts';

// `binnacle agent` as a person runs it, with a kubeconfig whose server is never dialled: every refusal below
// comes before the agent would connect.
let dir: string;
let kubeconfig: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'binnacle-settings-'));
  kubeconfig = join(dir, 'kubeconfig');
  await writeFile(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]',
      'users: [{name: u, user: {token: t}}]',
      'contexts: [{name: ctx, context: {cluster: c, user: u}}]',
      'current-context: ctx',
    ].join('\n'),
  );
});
// A value the agent took would leave it serving: the run fails on its time limit, and this ends it.
afterEach(killBinnacles);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A value each setting refuses. */
const bad: Record<string, string> = {
  port: 'eighty',
  'listen-address': 'not an address',
  namespace: 'Bad_NS',
  'no-browser': 'maybe',
  'debug-events': 'maybe',
  'release-feed-url': 'ftp://feed',
  'timeline-storage': 'disk',
  'history-limit': '5',
  'timeline-retention': '7d',
  'timeline-max-size': '1Zi',
  'time-travel-window': '721h',
  'time-travel-max-size': 'lots',
  'time-travel-configmap-values': 'sometimes',
  'helm-repositories': 'no-url-here',
  'catalog-url': 'catalog',
  'repohost-api-url': 'api',
  'debug-image': 'Busy Box',
  'disable-local-terminal': 'maybe',
  'no-mcp': 'maybe',
  'mcp-read-only': 'maybe',
  'max-event-streams': '0',
  'topology-max-nodes': '1',
  'metrics-poll-interval': '1ms',
  'metrics-history': '1',
  'hubble-address': 'relay',
  'metricsdb-url': 'ftp://store',
  'metricsdb-headers': 'Authorization',
  'metricsdb-timeout': '1h',
  'image-cache-max-size': 'lots',
  'image-file-max-size': 'lots',
  'cloud-url': 'hub',
  'self-upgrade-namespace': 'Bad_NS',
  'self-upgrade-deployment': 'Bad_Name',
  'auth-mode': 'magic',
  'auth-user-header': 'X User',
  'auth-groups-header': 'X Groups',
  'auth-proxy-addresses': '10.0.0.0/99',
  'oidc-issuer': 'issuer',
  'oidc-scopes': 'offline access',
  'oidc-groups-claim': ' ',
  'oidc-username-claim': ' email',
  'oidc-redirect-url': 'callback',
  'auth-session-lifetime': '1m',
};

/** Settings any text is a value of; why. */
const anyText: Record<string, string> = {
  kubeconfig: 'a file that is missing is a cluster that cannot be used: exit 1 (below)',
  context: 'looked up in the kubeconfig: exit 1 when it has no such context (below)',
  'data-dir': 'a path',
  'timeline-db': 'a path',
  'helm-binary': 'a path, looked up when a release changes',
  'image-cache-dir': 'a path',
  'oidc-client-secret-file': 'a path; a missing file is refused in oidc mode (below)',
  'cluster-token': "the hub's to check",
  'oidc-client-id': "the IdP's to check",
};

interface Outcome {
  code: number | null;
  stderr: string;
}

async function agent(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  const port = String(await freePort());
  const run = runBinnacle(['agent', '--kubeconfig', kubeconfig, '--no-browser', '--port', port, ...args], {
    HOME: dir,
    BINNACLE_DATA_DIR: join(dir, 'data'),
    ...env,
  });
  // A refused setting exits at start; the bound only catches an agent that went on to serve. Three starts at
  // once of the TypeScript sources on a loaded 2-core machine took over 15 s.
  return { code: await run.exit(45_000), stderr: run.stderr() };
}

/** Exit `code`, one message naming `setting`, and no stack trace. */
function expectRefused(outcome: Outcome, code: number, setting: string, label: string): void {
  expect({ label, code: outcome.code }).toEqual({ label, code });
  expect(outcome.stderr, label).toMatch(/^binnacle agent: /);
  expect(outcome.stderr, label).toContain(setting);
  expect(outcome.stderr, label).not.toMatch(/^\s+at /m);
}

describe('binnacle agent with a bad setting', () => {
  it('has a bad value, or a reason it has none, for every setting', () => {
    expect(agentOptions.map((o) => o.flag).sort()).toEqual(
      [...Object.keys(bad), ...Object.keys(anyText)].sort(),
    );
  });

  it('exits 2 naming the flag, or the variable for a boolean, and prints no stack trace', async () => {
    const cases = agentOptions.filter((o) => bad[o.flag] !== undefined);
    const outcomes = await mapConcurrently(cases, 3, async (option) => {
      const value = bad[option.flag] as string;
      // A boolean flag takes no value; its variable does.
      const setting = option.type === 'boolean' ? option.env : `--${option.flag}`;
      const outcome =
        option.type === 'boolean' ? await agent([], { [option.env]: value }) : await agent([setting, value]);
      return { setting, value, outcome };
    });
    for (const { setting, value, outcome } of outcomes)
      expectRefused(outcome, 2, setting, `${setting} ${value}`);
  }, 180_000);

  it('names the variable or the config-file field a bad value came from', async () => {
    expectRefused(
      await agent([], { BINNACLE_HELM_REPOSITORIES: 'no-url-here' }),
      2,
      'BINNACLE_HELM_REPOSITORIES: "no-url-here"',
      'variable',
    );
    await writeFile(join(dir, 'config.json'), JSON.stringify({ helmRepositories: 'charts=ftp://x' }));
    try {
      expectRefused(
        await agent(['--data-dir', dir]),
        2,
        'config.json helmRepositories: "charts=ftp://x"',
        'config file',
      );
    } finally {
      await rm(join(dir, 'config.json'));
    }
  }, 60_000);

  it('exits 2 for settings that only make sense together', async () => {
    const cases: [string[], string][] = [
      [['--cluster-token', 'bnc_x'], '--cloud-url'],
      [['--auth-mode', 'proxy'], '--auth-proxy-addresses'],
      [['--auth-mode', 'oidc'], '--oidc-issuer'],
      [
        [
          '--auth-mode',
          'oidc',
          '--oidc-issuer',
          'https://idp.example',
          '--oidc-client-id',
          'agent',
          '--oidc-redirect-url',
          'https://agent.example/auth/callback',
          '--oidc-client-secret-file',
          join(dir, 'missing-secret'),
        ],
        '--oidc-client-secret-file',
      ],
      [
        [
          '--auth-mode',
          'proxy',
          '--auth-proxy-addresses',
          '10.0.0.1',
          '--cloud-url',
          'https://hub.example',
          '--cluster-token',
          'bnc_x',
        ],
        '--cloud-url',
      ],
    ];
    const outcomes = await mapConcurrently(cases, 3, async ([args]) => agent(args));
    outcomes.forEach((outcome, index) => {
      const [args, setting] = cases[index] as [string[], string];
      expectRefused(outcome, 2, setting, args.join(' '));
    });
  }, 60_000);

  it('exits 1 naming a cluster it cannot use, without a stack trace', async () => {
    expectRefused(await agent(['--context', 'prod']), 1, 'context "prod" not found', '--context');
    expectRefused(
      await agent(['--kubeconfig', join(dir, 'missing')]),
      1,
      `kubeconfig ${join(dir, 'missing')} does not exist`,
      '--kubeconfig',
    );
  }, 60_000);
});
