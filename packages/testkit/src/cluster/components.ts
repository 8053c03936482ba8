import type { ClusterBinaries } from './paths.ts';
import { type ClusterPki, identities } from './pki.ts';
import type { ClusterPorts } from './state.ts';

/** Command lines of the control-plane components, all bound to loopback. */
export interface ComponentArgs {
  bin: ClusterBinaries;
  pki: ClusterPki;
  ports: ClusterPorts;
  etcdDataDir: string;
  adminKubeconfig: string;
  kwokConfig: string;
  /** Where metrics-server keeps the self-signed serving certificate it generates. */
  metricsServerCertDir: string;
  /** Where source-controller keeps the artifacts it serves to helm- and kustomize-controller. */
  fluxStorageDir: string;
}

/** The parts of ComponentArgs that etcd and kube-apiserver need (a control plane of those two only has no more). */
export type ApiServerArgs = Pick<ComponentArgs, 'pki' | 'etcdDataDir'> & {
  ports: Pick<ClusterPorts, 'etcdClient' | 'etcdPeer' | 'apiserver'>;
  /** An audit log of the requests of `auditedGroup`'s members only (see `auditPolicy`). */
  audit?: { policyFile: string; logFile: string };
};

/**
 * The group whose members' requests the test control plane's API server writes to its audit log: the
 * ServiceAccounts of this namespace. Only theirs, so the log stays small in a run of the whole suite; a test
 * that must see what an identity asked runs it as a ServiceAccount there.
 */
export const auditedNamespace = 'binnacle-audited';

/** The audit policy: every request of the audited group at Metadata level (verb, user, object), nothing else. */
export const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: Metadata
    userGroups: ["system:serviceaccounts:${auditedNamespace}"]
  - level: None
`;

export function etcdArgs({ ports, etcdDataDir }: ApiServerArgs): string[] {
  const client = `http://127.0.0.1:${ports.etcdClient}`;
  const peer = `http://127.0.0.1:${ports.etcdPeer}`;
  return [
    '--name=binnacle',
    `--data-dir=${etcdDataDir}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=binnacle=${peer}`,
    '--unsafe-no-fsync',
    '--quota-backend-bytes=2147483648',
    '--log-level=warn',
  ];
}

export function apiserverArgs({ pki, ports, audit }: ApiServerArgs): string[] {
  return [
    ...(audit
      ? [
          `--audit-policy-file=${audit.policyFile}`,
          `--audit-log-path=${audit.logFile}`,
          '--audit-log-maxsize=50',
        ]
      : []),
    `--etcd-servers=http://127.0.0.1:${ports.etcdClient}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${ports.apiserver}`,
    // The endpoint reconciler rejects a loopback advertise address; a sandbox has no other.
    '--endpoint-reconciler-type=none',
    `--tls-cert-file=${pki.apiserver.cert}`,
    `--tls-private-key-file=${pki.apiserver.key}`,
    `--client-ca-file=${pki.ca.cert}`,
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${pki.serviceAccountPub}`,
    `--service-account-signing-key-file=${pki.serviceAccountKey}`,
    '--service-cluster-ip-range=10.96.0.0/12',
    '--authorization-mode=Node,RBAC',
    '--allow-privileged=true',
    '--kubelet-preferred-address-types=Hostname,InternalIP',
    // The aggregation layer: requests for metrics.k8s.io reach metrics-server with the caller in X-Remote-*
    // headers, vouched for by this client certificate.
    `--proxy-client-cert-file=${pki.admin.cert}`,
    `--proxy-client-key-file=${pki.admin.key}`,
    `--requestheader-client-ca-file=${pki.ca.cert}`,
    `--requestheader-allowed-names=${identities.admin.user}`,
    '--requestheader-username-headers=X-Remote-User',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    '--profiling=false',
  ];
}

function controllerCommon({ adminKubeconfig }: ComponentArgs): string[] {
  return [
    `--kubeconfig=${adminKubeconfig}`,
    `--authentication-kubeconfig=${adminKubeconfig}`,
    `--authorization-kubeconfig=${adminKubeconfig}`,
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    '--profiling=false',
  ];
}

export function controllerManagerArgs(args: ComponentArgs): string[] {
  return [
    ...controllerCommon(args),
    `--secure-port=${args.ports.controllerManager}`,
    `--service-account-private-key-file=${args.pki.serviceAccountKey}`,
    `--root-ca-file=${args.pki.ca.cert}`,
    '--use-service-account-credentials=false',
    '--kube-api-qps=100',
    '--kube-api-burst=200',
  ];
}

export function schedulerArgs(args: ComponentArgs): string[] {
  return [...controllerCommon(args), `--secure-port=${args.ports.scheduler}`];
}

export function kwokArgs({ adminKubeconfig, ports, kwokConfig }: ComponentArgs): string[] {
  return [
    `--kubeconfig=${adminKubeconfig}`,
    `--config=${kwokConfig}`,
    '--manage-all-nodes=true',
    // PortForward rules per pod from the API server (the cluster-wide rules stay in the config file), so a test
    // can send one pod's port to a server of its own.
    '--enable-crds=PortForward',
    // Every simulated node points the API server at this one kwok server on loopback for logs, exec and
    // port-forward.
    '--node-ip=127.0.0.1',
    '--node-name=localhost',
    `--node-port=${ports.kwok}`,
    `--server-address=127.0.0.1:${ports.kwok}`,
    '--cidr=10.240.0.0/12',
    '--node-lease-duration-seconds=40',
  ];
}

export function metricsServerArgs({ adminKubeconfig, ports, metricsServerCertDir }: ComponentArgs): string[] {
  return [
    `--kubeconfig=${adminKubeconfig}`,
    `--authentication-kubeconfig=${adminKubeconfig}`,
    `--authorization-kubeconfig=${adminKubeconfig}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${ports.metricsServer}`,
    `--cert-dir=${metricsServerCertDir}`,
    // Every node's kubelet is kwok's server on loopback (its status port), with a self-signed certificate.
    '--kubelet-preferred-address-types=InternalIP',
    '--kubelet-use-node-status-port',
    '--kubelet-insecure-tls',
    // The shortest scrape period metrics-server allows; it must exceed the kubelet request timeout.
    '--metric-resolution=10s',
    '--kubelet-request-timeout=5s',
  ];
}

/**
 * Flux reconciles only objects carrying this label (`--watch-label-selector`): the seeded flux-system objects are
 * decorations whose statuses tests read, and a controller would overwrite them.
 */
export const fluxWatchLabel = { key: 'binnacle.dev/flux', value: 'reconcile' } as const;

/** The Flux controllers have no --kubeconfig flag; controller-runtime reads KUBECONFIG. */
export function fluxEnv({ adminKubeconfig }: ComponentArgs): NodeJS.ProcessEnv {
  return { ...process.env, KUBECONFIG: adminKubeconfig };
}

/**
 * Karpenter with its kwok cloud provider (ADR 0127): no leader election, the admin kubeconfig through KUBECONFIG
 * (controller-runtime). Its operator takes ports only; the build binds its metrics and health servers to loopback
 * (test/cluster/build.sh), on free ports.
 */
export function karpenterEnv({ adminKubeconfig, ports }: ComponentArgs): NodeJS.ProcessEnv {
  return {
    ...process.env,
    KUBECONFIG: adminKubeconfig,
    DISABLE_LEADER_ELECTION: 'true',
    METRICS_PORT: String(ports.karpenterMetrics),
    HEALTH_PROBE_PORT: String(ports.karpenterHealth),
    LOG_LEVEL: 'info',
  };
}

function fluxCommon(metricsPort: number, healthPort: number): string[] {
  return [
    `--metrics-addr=127.0.0.1:${metricsPort}`,
    `--health-addr=127.0.0.1:${healthPort}`,
    `--watch-label-selector=${fluxWatchLabel.key}=${fluxWatchLabel.value}`,
    '--enable-leader-election=false',
    '--log-level=info',
  ];
}

export function sourceControllerArgs({ ports, fluxStorageDir }: ComponentArgs): string[] {
  const storage = `127.0.0.1:${ports.sourceControllerStorage}`;
  return [
    ...fluxCommon(ports.sourceControllerMetrics, ports.sourceControllerHealth),
    `--storage-path=${fluxStorageDir}`,
    `--storage-addr=${storage}`,
    // The host in every artifact URL, which helm- and kustomize-controller download from.
    `--storage-adv-addr=${storage}`,
  ];
}

export function kustomizeControllerArgs({ ports }: ComponentArgs): string[] {
  return fluxCommon(ports.kustomizeControllerMetrics, ports.kustomizeControllerHealth);
}

export function helmControllerArgs({ ports }: ComponentArgs): string[] {
  return fluxCommon(ports.helmControllerMetrics, ports.helmControllerHealth);
}
