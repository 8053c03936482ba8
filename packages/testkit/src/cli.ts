/**
 * `npm run cluster:up | cluster:down | cluster:seed | cluster:status` — the local control plane for
 * development, the demo and tests. See docs/development.md.
 */
import { restartApiServer } from './cluster/api-server-restart.ts';
import { clusterDown, clusterUp, isRunning } from './cluster/control-plane.ts';
import { defaultStateDir } from './cluster/paths.ts';
import { seedCluster } from './cluster/seed.ts';
import { readState } from './cluster/state.ts';

const usage = `usage: node packages/testkit/src/cli.ts <up|down|seed|status>

  up      build (once) and start the full control plane on 127.0.0.1: etcd, kube-apiserver, controller-manager,
          scheduler, kwok, metrics-server, the chart sources and Flux's controllers;
          writes .cluster/admin.kubeconfig and .cluster/restricted.kubeconfig
  down    stop every process of the cluster and remove its data
  seed    apply the sample CRDs; create the sample workloads and Helm release that are missing, leaving existing
          ones as they are (starts the cluster first if needed)
  status  print whether the cluster runs, and where
  restart-apiserver
          stop kube-apiserver and start it again (etcd keeps the data), to see clients survive it

environment:
  BINNACLE_CLUSTER_DIR    state directory (default: <repo>/.cluster)
  BINNACLE_CLUSTER_NODES  simulated nodes for "up" (default: 3)
  BINNACLE_CACHE_DIR      where built binaries are cached (default: ~/.cache/binnacle)
`;

const log = (line: string) => process.stderr.write(`cluster: ${line}\n`);

async function main(command: string | undefined): Promise<number> {
  const stateDir = defaultStateDir();
  switch (command) {
    case 'up': {
      const state = await clusterUp({ stateDir, log });
      process.stdout.write(`${state.kubeconfigs.admin}\n`);
      return 0;
    }
    case 'down': {
      const stopped = await clusterDown({ stateDir });
      log(stopped ? 'stopped' : `nothing running in ${stateDir}`);
      return 0;
    }
    case 'seed': {
      const state = await clusterUp({ stateDir, log });
      await seedCluster(state, log);
      return 0;
    }
    case 'restart-apiserver': {
      const state = await restartApiServer({ stateDir });
      log(`kube-apiserver restarted at ${state.server}`);
      return 0;
    }
    case 'status': {
      const state = await readState(stateDir);
      if (!isRunning(state)) {
        log(state ? 'state found but some processes have exited; run cluster:down' : 'not running');
        return 1;
      }
      log(`running at ${state.server} (Kubernetes ${state.kubernetesVersion}, ${state.nodes.length} nodes)`);
      log(`admin kubeconfig: ${state.kubeconfigs.admin}`);
      log(`restricted kubeconfig: ${state.kubeconfigs.restricted}`);
      return 0;
    }
    default:
      process.stderr.write(usage);
      return command === undefined || command === '--help' || command === '-h' ? 0 : 2;
  }
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`cluster: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
