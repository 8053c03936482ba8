/**
 * `npm start [-- [--demo] [agent flags]]`: the agent against the cluster it would find itself (--kubeconfig,
 * BINNACLE_KUBECONFIG, `kubeconfig` in ~/.binnacle/config.json, KUBECONFIG, ~/.kube/config or the in-cluster
 * service account); nothing is built for it (ADR 0059). With none, or with --demo / BINNACLE_DEMO=1, it builds the
 * demo's components once (scripts/bootstrap.sh demo: Kubernetes, kwok, metrics-server), starts the local demo
 * control plane, creates the sample workloads that are missing, and stops it again when the agent exits; the agent
 * then knows the demo's chart repository. Releases are changed with the helm binary the bootstrap fetched.
 */
import { spawn } from 'node:child_process';
import { agentFindsCluster, runAgent } from '@binnacle/agent';
import {
  clusterDown,
  clusterUp,
  defaultStateDir,
  helmBinary,
  isRunning,
  readState,
  repoRoot,
  seedCluster,
} from '@binnacle/testkit';

const demoFlag = '--demo';
const given = process.argv.slice(2);
const args = given.filter((a) => a !== demoFlag);
const log = (line: string) => process.stderr.write(`npm start: ${line}\n`);

const help = `usage: npm start [-- [--demo] [agent flags]]

  With a cluster configured (the agent's --kubeconfig, BINNACLE_KUBECONFIG, kubeconfig in ~/.binnacle/config.json,
  KUBECONFIG, ~/.kube/config, the in-cluster service account) it serves the agent for it; nothing is built. Otherwise, or with --demo
  (BINNACLE_DEMO=1), it builds the demo control plane once (about 16 minutes cold on 2 cores, then seconds), starts
  it with sample workloads and stops it when the agent exits. The agent's flags follow.

`;

/** The helm binary the bootstrap fetched (test/cluster/helm.sh), unless one was named. */
async function withHelm(agentArgs: string[]): Promise<string[]> {
  if (agentArgs.some((a) => a.startsWith('--helm-binary')) || process.env.BINNACLE_HELM_BINARY)
    return agentArgs;
  return ['--helm-binary', await helmBinary(), ...agentArgs];
}

/** `scripts/bootstrap.sh demo`, its progress (the build's estimate per component) on this terminal. */
function buildDemo(): Promise<void> {
  return new Promise((resolveBuild, reject) => {
    const child = spawn('sh', ['scripts/bootstrap.sh', 'demo'], { cwd: repoRoot, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolveBuild()
        : reject(new Error(`scripts/bootstrap.sh demo failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

async function main(): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(help);
    return runAgent(args);
  }
  const demoAsked = given.includes(demoFlag) || process.env.BINNACLE_DEMO === '1';
  if (!demoAsked && (await agentFindsCluster(args))) return runAgent(await withHelm(args));
  const stateDir = defaultStateDir();
  const ownCluster = !isRunning(await readState(stateDir));
  if (ownCluster) {
    log(
      `${demoAsked ? 'demo asked for' : 'no cluster configured'}: starting the local demo control plane in ${stateDir}`,
    );
    await buildDemo();
  } else log('using the running local demo control plane');
  const state = await clusterUp({ stateDir, log, profile: 'demo' });
  try {
    await seedCluster(state, log);
    const demo = ['--kubeconfig', state.kubeconfigs.admin];
    if (!args.some((a) => a.startsWith('--helm-repositories')) && !process.env.BINNACLE_HELM_REPOSITORIES)
      demo.push('--helm-repositories', state.chartSources.repositories);
    return await runAgent(await withHelm([...demo, ...args]));
  } finally {
    if (ownCluster) {
      await clusterDown({ stateDir });
      log('local demo control plane stopped');
    }
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
