/**
 * `npm start [-- agent flags]`: the agent against the cluster it would find itself (--kubeconfig,
 * BINNACLE_KUBECONFIG, `kubeconfig` in ~/.binnacle/config.json, KUBECONFIG, ~/.kube/config or the in-cluster
 * service account). With none, it starts the local demo control plane with the sample workloads first, and stops
 * it again when the agent exits; the agent then knows the demo's two chart sources (a classic repository and an
 * OCI registry). Releases are changed with the helm binary the bootstrap fetched.
 */
import { agentFindsCluster, runAgent } from '@binnacle/agent';
import {
  clusterDown,
  clusterUp,
  defaultStateDir,
  helmBinary,
  isRunning,
  readState,
  seedCluster,
} from '@binnacle/testkit';

const args = process.argv.slice(2);
const log = (line: string) => process.stderr.write(`npm start: ${line}\n`);

/** The helm binary the bootstrap fetched (test/cluster/helm.sh), unless one was named. */
async function withHelm(agentArgs: string[]): Promise<string[]> {
  if (agentArgs.some((a) => a.startsWith('--helm-binary')) || process.env.BINNACLE_HELM_BINARY)
    return agentArgs;
  return ['--helm-binary', await helmBinary(), ...agentArgs];
}

async function main(): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) return runAgent(args);
  if (await agentFindsCluster(args)) return runAgent(await withHelm(args));
  const stateDir = defaultStateDir();
  const ownCluster = !isRunning(await readState(stateDir));
  log(
    ownCluster
      ? `no cluster configured: starting the local demo control plane in ${stateDir}`
      : 'using the running local demo control plane',
  );
  const state = await clusterUp({ stateDir, log });
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
