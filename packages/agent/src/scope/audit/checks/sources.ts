/** The frameworks and documentation pages the checks cite, by the keys check-meta.json uses. */

const cisBenchmark = 'CIS Kubernetes Benchmark v1.9';
const nsaGuide = 'NSA/CISA Kubernetes Hardening Guide v1.2';

const cis = {
  clusterAdmin: '5.1.1 (cluster-admin only where required)',
  wildcards: '5.1.3 (minimize wildcards in Roles and ClusterRoles)',
  tokenMounts: '5.1.6 (service account tokens only where necessary)',
  privileged: '5.2.2 (privileged containers)',
  hostPID: '5.2.3 (host PID namespace)',
  hostIPC: '5.2.4 (host IPC namespace)',
  hostNetwork: '5.2.5 (host network namespace)',
  privilegeEscalation: '5.2.6 (allowPrivilegeEscalation)',
  root: '5.2.7 (root containers)',
  netRaw: '5.2.8 (NET_RAW capability)',
  addedCapabilities: '5.2.9 (added capabilities)',
  capabilities: '5.2.10 (capabilities assigned)',
  hostProcess: '5.2.11 (Windows HostProcess containers)',
  hostPath: '5.2.12 (hostPath volumes)',
  hostPorts: '5.2.13 (hostPorts)',
  networkPolicies: '5.3.2 (network policies in every namespace)',
  secretFiles: '5.4.1 (Secrets as files, not environment variables)',
  seccomp: '5.7.2 (seccomp profile)',
  securityContext: '5.7.3 (security context on pods and containers)',
};

const nsa = {
  nonRoot: 'Kubernetes Pod security, non-root containers',
  immutable: 'Kubernetes Pod security, immutable container file systems',
  images: 'Kubernetes Pod security, building secure container images',
  enforcement: 'Kubernetes Pod security, Pod security enforcement',
  tokens: 'Kubernetes Pod security, protecting Pod service account tokens',
  hardening: 'Kubernetes Pod security, hardening container environments',
  networkPolicies: 'Network separation and hardening, network policies',
  resourcePolicies: 'Network separation and hardening, resource policies',
  secrets: 'Network separation and hardening, Secrets',
  rbac: 'Authentication and authorization, role-based access control',
  upgrades: 'Upgrading and application security practices',
};

/** Framework sections by key: `cis.<name>` and `nsa.<name>`. */
export const frameworks: ReadonlyMap<string, string> = new Map([
  ...Object.entries(cis).map(([key, item]) => [`cis.${key}`, `${cisBenchmark} ${item}`] as const),
  ...Object.entries(nsa).map(([key, section]) => [`nsa.${key}`, `${nsaGuide}: ${section}`] as const),
]);

const k8s = 'https://kubernetes.io/docs';

/** Kubernetes documentation pages by key. */
export const docs: ReadonlyMap<string, string> = new Map(
  Object.entries({
    podSecurityStandards: '/concepts/security/pod-security-standards/',
    securityContext: '/tasks/configure-pod-container/security-context/',
    capabilities: '/tasks/configure-pod-container/security-context/#set-capabilities-for-a-container',
    seccomp: '/tutorials/security/seccomp/',
    appArmor: '/tutorials/security/apparmor/',
    hostPath: '/concepts/storage/volumes/#hostpath',
    hostProcess: '/tasks/configure-pod-container/create-hostprocess-pod/',
    serviceAccountTokens:
      '/tasks/configure-pod-container/configure-service-account/#opt-out-of-api-credential-automounting',
    secrets: '/concepts/configuration/secret/',
    secretsGoodPractices: '/concepts/security/secrets-good-practices/',
    configMaps: '/concepts/configuration/configmap/',
    rbac: '/reference/access-authn-authz/rbac/',
    rbacGoodPractices: '/concepts/security/rbac-good-practices/',
    networkPolicies: '/concepts/services-networking/network-policies/',
    ingress: '/concepts/services-networking/ingress/',
    ingressTls: '/concepts/services-networking/ingress/#tls',
    services: '/concepts/services-networking/service/',
    probes: '/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/',
    images: '/concepts/containers/images/',
    pullPolicy: '/concepts/containers/images/#image-pull-policy',
    deployments: '/concepts/workloads/controllers/deployment/',
    disruptions: '/concepts/workloads/pods/disruptions/',
    pdb: '/tasks/run-application/configure-pdb/',
    hpa: '/tasks/run-application/horizontal-pod-autoscale/',
    topologySpread: '/concepts/scheduling-eviction/topology-spread-constraints/',
    assignPods: '/concepts/scheduling-eviction/assign-pod-node/',
    priority: '/concepts/scheduling-eviction/pod-priority-preemption/',
    commonLabels: '/concepts/overview/working-with-objects/common-labels/',
    deprecations: '/reference/using-api/deprecation-guide/',
    finalizers: '/concepts/overview/working-with-objects/finalizers/',
    resources: '/concepts/configuration/manage-resources-containers/',
    metrics: '/tasks/debug/debug-cluster/resource-metrics-pipeline/',
  }).map(([key, path]) => [key, `${k8s}${path}`]),
);
