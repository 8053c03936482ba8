/**
 * `npm start [-- agent flags]`: the agent against the cluster it would find itself (--kubeconfig,
 * BINNACLE_KUBECONFIG, `kubeconfig` in ~/.binnacle/config.json, KUBECONFIG, ~/.kube/config or the in-cluster
 * service account). With none, it starts the local demo control plane with the sample workloads first, and stops
 * it again when the agent exits.
 */
import { agentFindsCluster, runAgent } from '@binnacle/agent';
import {
  clusterDown,
  clusterUp,
  defaultStateDir,
  isRunning,
  readState,
  seedCluster,
} from '@binnacle/testkit';

const args = process.argv.slice(2);
const log = (line: string) => process.stderr.write(`npm start: ${line}\n`);

async function main(): Promise<number> {
  if (args.includes('--help') || args.includes('-h') || (await agentFindsCluster(args)))
    return runAgent(args);
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
    return await runAgent(['--kubeconfig', state.kubeconfigs.admin, ...args]);
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
