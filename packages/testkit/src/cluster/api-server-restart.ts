import { readFile } from 'node:fs/promises';
import { apiserverTimeoutMs, isRunning } from './control-plane.ts';
import { defaultStateDir } from './paths.ts';
import { healthy } from './probe.ts';
import { startProcess, stopProcesses } from './processes.ts';
import { type ClusterState, readState, writeState } from './state.ts';
import { waitUntil } from './wait.ts';

/**
 * Stops kube-apiserver and starts it again with the same flags and port (etcd keeps the data), for tests of
 * what clients do when the API server goes away mid-watch. Resolves when it answers /readyz again.
 */
export async function restartApiServer(
  options: { stateDir?: string; downMs?: number } = {},
): Promise<ClusterState> {
  const stateDir = options.stateDir ?? defaultStateDir();
  const state = await readState(stateDir);
  if (!isRunning(state)) throw new Error(`no running control plane in ${stateDir}`);
  const index = state.processes.findIndex((p) => p.name === 'kube-apiserver');
  const old = state.processes[index];
  if (!old) throw new Error('the state lists no kube-apiserver');
  const argv = (await readFile(`/proc/${old.pid}/cmdline`, 'utf8')).split('\0').filter(Boolean).slice(1);
  await stopProcesses([old]);
  if (options.downMs) await new Promise((r) => setTimeout(r, options.downMs));
  const proc = startProcess('kube-apiserver', old.binary, argv, old.logFile);
  state.processes[index] = proc;
  await writeState(state);
  await waitUntil(
    'kube-apiserver after restart',
    healthy(`${state.server}/readyz`, { ca: state.pki.ca.cert, client: state.pki.admin }),
    {
      timeoutMs: apiserverTimeoutMs,
      process: proc,
    },
  );
  return state;
}
