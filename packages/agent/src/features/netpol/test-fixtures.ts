import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import { evaluateConnection } from './evaluate.ts';
import type { ClusterSnapshot, ConnectionResult, Protocol } from './model.ts';

/** Test-only builders: objects shaped as the API server returns them, named `namespace/name`. */
const split = (ref: string) => {
  const [namespace = '', name = ''] = ref.split('/');
  return { namespace, name };
};

export const namespace = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels },
});

export interface PodOptions {
  ip?: string | string[];
  ports?: { name?: string; containerPort: number; protocol?: Protocol }[];
  hostNetwork?: boolean;
}

export function pod(ref: string, labels: Record<string, string> = {}, options: PodOptions = {}): KubeObject {
  const ips = typeof options.ip === 'string' ? [options.ip] : (options.ip ?? []);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...split(ref), labels },
    spec: {
      containers: [{ name: 'main', ports: options.ports ?? [] }],
      ...(options.hostNetwork ? { hostNetwork: true } : {}),
    },
    status: { phase: 'Running', ...(ips[0] ? { podIP: ips[0], podIPs: ips.map((ip) => ({ ip })) } : {}) },
  };
}

export const policy = (ref: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: split(ref),
  spec,
});

export const service = (
  ref: string,
  selector: Record<string, string> | undefined,
  ports: { port: number; targetPort?: number | string; protocol?: Protocol }[],
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: split(ref),
  spec: { ...(selector ? { selector } : {}), ports },
});

export const cluster = (parts: Partial<ClusterSnapshot>): ClusterSnapshot => ({
  namespaces: [],
  pods: [],
  services: [],
  policies: [],
  ...parts,
});

/** Pod to pod, TCP unless told. */
export const connect = (
  snapshot: ClusterSnapshot,
  from: string,
  to: string,
  port?: number,
  protocol?: Protocol,
): ConnectionResult =>
  evaluateConnection(snapshot, {
    source: { pod: split(from) },
    destination: { pod: split(to) },
    ...(port === undefined ? {} : { port }),
    ...(protocol ? { protocol } : {}),
  });

/** The status and message of the AppError a call throws; fails the test when it throws none. */
export function failure(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected the call to throw an AppError');
}
