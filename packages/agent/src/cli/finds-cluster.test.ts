import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentFindsCluster } from './agent-command.ts';

/** `npm start` starts the demo cluster only when this says the agent would find none (scripts/start.ts). */
const sources = ['HOME', 'KUBECONFIG', 'BINNACLE_KUBECONFIG', 'KUBERNETES_SERVICE_HOST'];
let saved: Record<string, string | undefined>;
let home: string;
let dataDir: string;
let kubeconfig: string;

beforeEach(async () => {
  saved = Object.fromEntries(sources.map((name) => [name, process.env[name]]));
  home = await mkdtemp(join(tmpdir(), 'binnacle-home-'));
  for (const name of sources) delete process.env[name];
  process.env.HOME = home;
  dataDir = join(home, '.binnacle');
  await mkdir(dataDir);
  kubeconfig = join(home, 'staging.yaml');
  await writeFile(kubeconfig, 'apiVersion: v1\nkind: Config\n');
});
afterEach(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await rm(home, { recursive: true, force: true });
});

describe('whether the agent finds a cluster by itself', () => {
  it('finds none with nothing configured', async () => {
    expect(await agentFindsCluster([])).toBe(false);
  });

  it('reads the kubeconfig named in ~/.binnacle/config.json', async () => {
    await writeFile(join(dataDir, 'config.json'), JSON.stringify({ kubeconfig }));
    expect(await agentFindsCluster([])).toBe(true);
  });

  it('reads the config file of another --data-dir', async () => {
    const other = join(home, 'elsewhere');
    await mkdir(other);
    await writeFile(join(other, 'config.json'), JSON.stringify({ kubeconfig }));
    expect(await agentFindsCluster(['--data-dir', other])).toBe(true);
    expect(await agentFindsCluster([])).toBe(false);
  });

  it.each([
    ['--kubeconfig', () => ['--kubeconfig', kubeconfig], {}],
    ['BINNACLE_KUBECONFIG', () => [], { BINNACLE_KUBECONFIG: 'x' }],
    ['KUBECONFIG', () => [], { KUBECONFIG: 'x' }],
  ] as const)('honours %s', async (_source, argv, env) => {
    Object.assign(process.env, env);
    expect(await agentFindsCluster([...argv()])).toBe(true);
  });

  it('finds ~/.kube/config', async () => {
    await mkdir(join(home, '.kube'));
    await writeFile(join(home, '.kube', 'config'), 'apiVersion: v1\nkind: Config\n');
    expect(await agentFindsCluster([])).toBe(true);
  });

  it('leaves a config file it would refuse to the agent, which says why', async () => {
    await writeFile(join(dataDir, 'config.json'), '{"kubeconfig": 5}');
    expect(await agentFindsCluster([])).toBe(true);
  });
});
