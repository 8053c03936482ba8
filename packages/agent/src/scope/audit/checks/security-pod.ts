import { containerCheck, type PodView, podCheck } from './define.ts';
import { type ContainerView, effective } from './pod-spec.ts';
import type { Check } from './types.ts';
import { list, num, obj, str, strings } from './values.ts';

/** Capability names as the runtime takes them: upper case, without the `CAP_` prefix. */
const capabilities = (c: ContainerView, field: 'add' | 'drop') =>
  strings(obj(c.securityContext.capabilities)[field]).map((cap) => cap.toUpperCase().replace(/^CAP_/, ''));

/** What containerd and CRI-O grant a container that drops nothing. */
const runtimeDefaults = [
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'NET_RAW',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
];
/** Capabilities that all but give the container the host. */
const dangerousCapabilities = ['ALL', 'SYS_ADMIN', 'NET_ADMIN'];
/** Capabilities attackers use to spoof traffic, read other processes or reach devices and the kernel. */
const insecureCapabilities = [
  'NET_RAW',
  'MKNOD',
  'SYS_PTRACE',
  'SYS_MODULE',
  'SYS_RAWIO',
  'DAC_READ_SEARCH',
  'BPF',
];

/** The capabilities a container ends up with: the runtime's defaults less those it drops, plus those it adds. */
function keptCapabilities(c: ContainerView): string[] {
  const drop = capabilities(c, 'drop');
  const base = drop.includes('ALL') ? [] : runtimeDefaults.filter((cap) => !drop.includes(cap));
  return [...new Set([...base, ...capabilities(c, 'add')])];
}

const privileged = (c: ContainerView) => c.securityContext.privileged === true;

function runAsRoot(c: ContainerView, pod: PodView) {
  const user = num(effective(c, pod.spec, 'runAsUser'));
  if (user === 0) return { message: 'runs as UID 0 (root)', severity: 'danger' as const };
  if ((user !== undefined && user > 0) || effective(c, pod.spec, 'runAsNonRoot') === true) return undefined;
  return 'may run as root: neither runAsNonRoot: true nor a non-zero runAsUser is set';
}

function privilegeEscalation(c: ContainerView) {
  const allowed = c.securityContext.allowPrivilegeEscalation;
  if (allowed === false) return undefined;
  return allowed === true
    ? 'sets allowPrivilegeEscalation: true'
    : 'allows privilege escalation: allowPrivilegeEscalation is not set to false';
}

function insecure(c: ContainerView) {
  if (privileged(c) || capabilities(c, 'add').includes('ALL')) return undefined; // the checks above report these
  const kept = keptCapabilities(c).filter((cap) => insecureCapabilities.includes(cap));
  return kept.length > 0
    ? `keeps capabilities ${kept.join(', ')}; drop ALL and add back only what it needs`
    : undefined;
}

/** Linux hardening: a seccomp or AppArmor profile that confines, SELinux options, or dropped capabilities. */
function hardened(c: ContainerView, pod: PodView): boolean {
  const confining = (profile: unknown) => {
    const type = str(obj(profile).type);
    return type !== undefined && type !== 'Unconfined';
  };
  const annotations = obj(pod.metadata.annotations);
  const appArmorAnnotation = str(annotations[`container.apparmor.security.beta.kubernetes.io/${c.name}`]);
  const dropsSome = capabilities(c, 'drop').length > 0 && !capabilities(c, 'add').includes('ALL');
  return (
    confining(effective(c, pod.spec, 'seccompProfile')) ||
    confining(effective(c, pod.spec, 'appArmorProfile')) ||
    (appArmorAnnotation !== undefined && appArmorAnnotation !== 'unconfined') ||
    Object.keys(obj(effective(c, pod.spec, 'seLinuxOptions'))).length > 0 ||
    dropsSome
  );
}

/** Where a hostPath volume points; each volume is reported by exactly one of the three hostPath checks. */
type HostPathClass = 'runtimeSocket' | 'sensitive' | 'other';
const socketPattern = /(^|\/)(docker|containerd|crio|cri-dockerd|podman)\.sock$/;
const socketDirectories = ['/run/containerd', '/var/run/containerd', '/run/crio', '/var/run/crio'];
const sensitiveDirectories = [
  '/etc',
  '/proc',
  '/sys',
  '/var/run',
  '/run',
  '/root',
  '/boot',
  '/var/lib/kubelet',
];
const normalPath = (path: string) => path.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
const under = (path: string, directories: string[]) =>
  directories.some((dir) => path === dir || path.startsWith(`${dir}/`));

function hostPathClass(rawPath: string): HostPathClass {
  const path = normalPath(rawPath);
  if (socketPattern.test(path) || under(path, socketDirectories)) return 'runtimeSocket';
  if (path === '/' || under(path, sensitiveDirectories)) return 'sensitive';
  return 'other';
}

function hostPathProblems(
  pod: PodView,
  wanted: HostPathClass,
  say: (path: string, volume: string) => string,
) {
  return list(pod.spec.volumes).map((volume) => {
    const path = str(obj(volume.hostPath).path);
    if (path === undefined || hostPathClass(path) !== wanted) return undefined;
    return { message: say(path, String(volume.name ?? '')) };
  });
}

/** The pod-level host namespace switches share their logic: the field is set to true. */
const hostNamespace = (field: 'hostNetwork' | 'hostPID' | 'hostIPC', what: string): Check =>
  podCheck(field, (pod) => [pod.spec[field] === true ? { message: `shares the host's ${what}` } : undefined]);

const hostPorts = (c: ContainerView, pod: PodView) => {
  if (pod.spec.hostNetwork === true) return undefined; // the API server sets hostPort on every port there
  const ports = list(c.spec.ports)
    .map((port) => num(port.hostPort) ?? 0)
    .filter((port) => port > 0);
  return ports.length > 0 ? `binds host port ${ports.join(', ')}` : undefined;
};

const procMount = (c: ContainerView) => {
  const mount = str(c.securityContext.procMount);
  return mount !== undefined && mount !== 'Default' ? `sets procMount: ${mount}` : undefined;
};

const dangerous = (c: ContainerView) => {
  const added = capabilities(c, 'add').filter((cap) => dangerousCapabilities.includes(cap));
  return added.length > 0 ? `adds capabilities ${added.join(', ')}` : undefined;
};

export const securityPodChecks: Check[] = [
  containerCheck('runAsRoot', 'all', runAsRoot),
  containerCheck('privileged', 'all', (c) => (privileged(c) ? 'runs privileged' : undefined)),
  containerCheck('privilegeEscalation', 'all', privilegeEscalation),
  containerCheck('readOnlyRootFs', 'all', (c) =>
    c.securityContext.readOnlyRootFilesystem === true
      ? undefined
      : 'root filesystem is writable: readOnlyRootFilesystem is not true',
  ),
  containerCheck('dangerousCapabilities', 'all', dangerous),
  containerCheck('insecureCapabilities', 'all', insecure),
  podCheck('dockerSocketMount', (pod) =>
    hostPathProblems(
      pod,
      'runtimeSocket',
      (path, v) => `mounts the container runtime socket ${path} (volume ${v})`,
    ),
  ),
  podCheck('sensitiveHostPath', (pod) =>
    hostPathProblems(pod, 'sensitive', (path, v) =>
      normalPath(path) === '/'
        ? `mounts the host's root filesystem (volume ${v})`
        : `mounts the host's ${path} (volume ${v})`,
    ),
  ),
  podCheck('hostPathSet', (pod) =>
    hostPathProblems(pod, 'other', (path, v) => `mounts host path ${path} (volume ${v})`),
  ),
  hostNamespace('hostNetwork', 'network namespace (hostNetwork: true)'),
  hostNamespace('hostPID', 'process namespace (hostPID: true)'),
  hostNamespace('hostIPC', 'IPC namespace (hostIPC: true)'),
  containerCheck('hostPortSet', 'all', hostPorts),
  containerCheck('hostProcess', 'all', (c, pod) =>
    obj(effective(c, pod.spec, 'windowsOptions')).hostProcess === true
      ? 'runs as a Windows HostProcess container'
      : undefined,
  ),
  containerCheck('procMount', 'all', procMount),
  containerCheck('linuxHardening', 'images', (c, pod) =>
    hardened(c, pod) ? undefined : 'has no seccomp, AppArmor or SELinux profile and drops no capabilities',
  ),
];
