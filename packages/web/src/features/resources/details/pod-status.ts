import type { KubeObject } from '@binnacle/common';
import type { Condition } from './format.ts';

/** A container's status as the kubelet reports it (only what the pod page reads is typed). */
export interface ContainerStatus {
  name: string;
  ready?: boolean;
  started?: boolean;
  restartCount?: number;
  image?: string;
  imageID?: string;
  state?: ContainerState;
  lastState?: ContainerState;
}

export interface ContainerState {
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: string };
  terminated?: Terminated;
}

export interface Terminated {
  exitCode?: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
}

interface PodStatusFields {
  phase?: string;
  reason?: string;
  message?: string;
  conditions?: Condition[];
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
}

const statusOf = (pod: KubeObject) => (pod.status ?? {}) as PodStatusFields;

/** `ExitCode:1`, `Signal:9`, or the termination's reason: how kubectl names a container that stopped. */
const stoppedWord = (t: Terminated) =>
  t.reason || (t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode ?? 0}`);

/** Reasons a waiting container gives while it is merely starting: nothing has gone wrong yet. */
const startingReasons = new Set(['ContainerCreating', 'PodInitializing']);

/** What went wrong with one container, in the kubelet's words. */
export interface ContainerTrouble {
  container: string;
  init: boolean;
  /** The state it is in now, when that is a failure (CrashLoopBackOff, ImagePullBackOff, a non-zero exit). */
  now?: { reason: string; message?: string; exitCode?: number; signal?: number; finishedAt?: string };
  /** How its previous run ended, when it ended badly (OOMKilled, Error with an exit code). */
  last?: Terminated;
  restarts: number;
}

const failed = (t: Terminated | undefined): t is Terminated =>
  t !== undefined && (t.exitCode !== 0 || (t.reason !== undefined && t.reason !== 'Completed'));

/** Every container (init ones first) that is failing now or whose last run failed, with the kubelet's reasons. */
export function containerTroubles(pod: KubeObject): ContainerTrouble[] {
  const status = statusOf(pod);
  const all = [
    ...(status.initContainerStatuses ?? []).map((c) => ({ c, init: true })),
    ...(status.containerStatuses ?? []).map((c) => ({ c, init: false })),
  ];
  const troubles: ContainerTrouble[] = [];
  for (const { c, init } of all) {
    const waiting = c.state?.waiting;
    const t = c.state?.terminated;
    const now =
      waiting?.reason && !startingReasons.has(waiting.reason)
        ? { reason: waiting.reason, message: waiting.message }
        : failed(t)
          ? { ...t, reason: stoppedWord(t) }
          : undefined;
    const last = failed(c.lastState?.terminated) ? c.lastState?.terminated : undefined;
    if (now || last) troubles.push({ container: c.name, init, now, last, restarts: c.restartCount ?? 0 });
  }
  return troubles;
}

/** How a run ended, in words: `Error, exit code 1`, `OOMKilled, exit code 137`, `signal 9`. */
export function endedWords(t: Terminated): string {
  const parts = [t.reason, t.exitCode !== undefined ? `exit code ${t.exitCode}` : undefined];
  if (t.signal) parts.push(`signal ${t.signal}`);
  return parts.filter(Boolean).join(', ');
}

/** A container state in words: `Running since …`, `Waiting: CrashLoopBackOff`, `Terminated: Error, exit code 1`. */
export function stateWords(state: ContainerState | undefined): string {
  if (state?.running) return 'Running';
  if (state?.waiting) return `Waiting${state.waiting.reason ? `: ${state.waiting.reason}` : ''}`;
  if (state?.terminated) return `Terminated: ${endedWords(state.terminated)}`;
  return 'Unknown';
}

/** A probe as the pod spec has it. */
export interface Probe {
  httpGet?: { path?: string; port?: number | string; scheme?: string; host?: string };
  tcpSocket?: { port?: number | string; host?: string };
  grpc?: { port?: number; service?: string };
  exec?: { command?: string[] };
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
}

/**
 * A probe in words, with the API's defaults filled in and only unusual settings named:
 * `HTTP GET :8080/healthz every 10s, failure 3`, `TCP :5432 every 5s, after 15s, timeout 2s, failure 6`.
 */
export function probeWords(p: Probe): string {
  const how = p.httpGet
    ? `HTTP${p.httpGet.scheme === 'HTTPS' ? 'S' : ''} GET ${p.httpGet.host ?? ''}:${p.httpGet.port ?? ''}${p.httpGet.path ?? '/'}`
    : p.tcpSocket
      ? `TCP ${p.tcpSocket.host ?? ''}:${p.tcpSocket.port ?? ''}`
      : p.grpc
        ? `gRPC :${p.grpc.port ?? ''}${p.grpc.service ? ` ${p.grpc.service}` : ''}`
        : p.exec
          ? `exec ${(p.exec.command ?? []).join(' ')}`
          : 'no handler';
  const parts = [`${how} every ${p.periodSeconds ?? 10}s`];
  if (p.initialDelaySeconds) parts.push(`after ${p.initialDelaySeconds}s`);
  if ((p.timeoutSeconds ?? 1) !== 1) parts.push(`timeout ${p.timeoutSeconds}s`);
  if ((p.successThreshold ?? 1) !== 1) parts.push(`success ${p.successThreshold}`);
  parts.push(`failure ${p.failureThreshold ?? 3}`);
  return parts.join(', ');
}

/** `cpu 100m, memory 128Mi`, or undefined when nothing is set. */
export function quantitiesWords(quantities: Record<string, string> | undefined): string | undefined {
  const entries = Object.entries(quantities ?? {});
  return entries.length === 0 ? undefined : entries.map(([k, v]) => `${k} ${v}`).join(', ');
}
