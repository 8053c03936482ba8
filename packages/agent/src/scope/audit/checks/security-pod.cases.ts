import { type Case, check } from './cases.ts';
import { container, deployment, pod, secure, workload } from './fixtures.ts';
import type { Obj } from './values.ts';

const withContainers = (...containers: Obj[]) => deployment({ containers });
/** A deployment whose container has these securityContext fields replaced. */
const sc = (fields: Obj) => withContainers(secure(fields));
const hostPath = (path: string, name = 'host') => deployment({ volumes: [{ name, hostPath: { path } }] });
const noRunAs = { runAsNonRoot: undefined, runAsUser: undefined };
const capabilities = (add: string[]) => sc({ capabilities: { drop: ['ALL'], add } });
const unconfined = (securityContext: Obj) => withContainers(container({ securityContext }));
const bare = container({ securityContext: {} });
const runtimeDefault = { seccompProfile: { type: 'RuntimeDefault' } };
const appArmor = { annotations: { 'container.apparmor.security.beta.kubernetes.io/app': 'runtime/default' } };

export const securityPodCases: Case[] = [
  ...check('runAsRoot', (flags, passes) => [
    flags('UID 0', sc({ runAsUser: 0 }), ['danger', 'runs as UID 0', 'app']),
    flags(
      'an init container left to the image',
      deployment({ initContainers: [secure(noRunAs, 'migrate')] }),
      ['warning', 'may run as root', 'migrate'],
    ),
    passes(
      'runAsNonRoot on the pod',
      deployment({ securityContext: { runAsNonRoot: true }, containers: [secure(noRunAs)] }),
    ),
  ]),
  ...check('privileged', (flags, passes) => [
    flags('privileged container', sc({ privileged: true }), ['danger', 'runs privileged', 'app']),
    flags(
      'a privileged ephemeral (debug) container',
      pod({ ephemeralContainers: [secure({ privileged: true }, 'debug')] }),
      ['danger', 'runs privileged', 'debug'],
    ),
    passes('hardened container', deployment()),
  ]),
  ...check('privilegeEscalation', (flags, passes) => [
    flags(
      'allowed, in a CronJob',
      workload('CronJob', { containers: [secure({ allowPrivilegeEscalation: true })] }),
      ['danger', 'sets allowPrivilegeEscalation: true', 'app'],
    ),
    flags('not set', sc({ allowPrivilegeEscalation: undefined }), ['danger', 'not set to false', 'app']),
    passes('set to false', deployment()),
  ]),
  ...check('readOnlyRootFs', (flags, passes) => [
    flags('writable', sc({ readOnlyRootFilesystem: false }), [
      'warning',
      'root filesystem is writable',
      'app',
    ]),
    passes('read-only', deployment()),
  ]),
  ...check('dangerousCapabilities', (flags, passes) => [
    flags('SYS_ADMIN and CAP_NET_ADMIN', capabilities(['SYS_ADMIN', 'cap_net_admin', 'CHOWN']), [
      'danger',
      'adds capabilities SYS_ADMIN, NET_ADMIN',
      'app',
    ]),
    passes('only NET_BIND_SERVICE added', capabilities(['NET_BIND_SERVICE'])),
  ]),
  ...check('insecureCapabilities', (flags, passes) => [
    flags('nothing dropped', sc({ capabilities: undefined }), [
      'warning',
      'keeps capabilities MKNOD, NET_RAW',
      'app',
    ]),
    flags('SYS_PTRACE added back', capabilities(['SYS_PTRACE']), [
      'warning',
      'keeps capabilities SYS_PTRACE',
      'app',
    ]),
    passes('ALL dropped, NET_BIND_SERVICE added back', capabilities(['NET_BIND_SERVICE'])),
  ]),
  ...check('dockerSocketMount', (flags, passes) => [
    flags('Docker socket', hostPath('/var/run/docker.sock', 'docker'), [
      'danger',
      'socket /var/run/docker.sock (volume docker)',
    ]),
    flags('containerd socket directory', hostPath('/run/containerd/'), [
      'danger',
      'runtime socket /run/containerd/',
    ]),
    passes('another host path', hostPath('/data/cache')),
  ]),
  ...check('sensitiveHostPath', (flags, passes) => [
    flags('host root', hostPath('/', 'root'), ['danger', "mounts the host's root filesystem (volume root)"]),
    flags('below /etc', hostPath('/etc/kubernetes/'), ['danger', "mounts the host's /etc/kubernetes/"]),
    passes('a name that only starts like /etc', hostPath('/etcetera')),
    passes('the Docker socket is dockerSocketMount’s', hostPath('/var/run/docker.sock')),
  ]),
  ...check('hostPathSet', (flags, passes) => [
    flags('a data directory', hostPath('/data/cache', 'cache'), [
      'warning',
      'mounts host path /data/cache (volume cache)',
    ]),
    passes('/proc is sensitiveHostPath’s', hostPath('/proc')),
    passes('an emptyDir', deployment({ volumes: [{ name: 'tmp', emptyDir: {} }] })),
  ]),
  ...check('hostNetwork', (flags, passes) => [
    flags('host network', deployment({ hostNetwork: true }), [
      'warning',
      "shares the host's network namespace",
    ]),
    passes('pod network', deployment({ hostNetwork: false })),
  ]),
  ...check('hostPID', (flags, passes) => [
    flags('host PID', deployment({ hostPID: true }), ['danger', "shares the host's process namespace"]),
    passes('own PID namespace', deployment()),
  ]),
  ...check('hostIPC', (flags, passes) => [
    flags('host IPC', deployment({ hostIPC: true }), ['danger', "shares the host's IPC namespace"]),
    passes('own IPC namespace', deployment()),
  ]),
  ...check('hostPortSet', (flags, passes) => [
    flags(
      'a host port',
      withContainers(container({ ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 9 }] })),
      ['warning', 'binds host port 8080', 'app'],
    ),
    passes(
      'on the host network',
      deployment({ hostNetwork: true, containers: [container({ ports: [{ hostPort: 53 }] })] }),
    ),
    passes('container ports only', withContainers(container({ ports: [{ containerPort: 8080 }] }))),
  ]),
  ...check('hostProcess', (flags, passes) => [
    flags(
      'pod-level HostProcess',
      deployment({ securityContext: { windowsOptions: { hostProcess: true } } }),
      ['warning', 'Windows HostProcess', 'app'],
    ),
    passes(
      'Windows options',
      deployment({ securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } } }),
    ),
  ]),
  ...check('procMount', (flags, passes) => [
    flags('unmasked /proc', sc({ procMount: 'Unmasked' }), ['warning', 'sets procMount: Unmasked', 'app']),
    passes('default /proc', sc({ procMount: 'Default' })),
  ]),
  ...check('linuxHardening', (flags, passes) => [
    flags('no profile, nothing dropped', unconfined({ runAsNonRoot: true }), [
      'warning',
      'has no seccomp, AppArmor',
      'app',
    ]),
    flags('Unconfined seccomp', unconfined({ seccompProfile: { type: 'Unconfined' } }), [
      'warning',
      'has no seccomp',
      'app',
    ]),
    passes('RuntimeDefault on the pod', deployment({ securityContext: runtimeDefault, containers: [bare] })),
    passes(
      'an AppArmor annotation',
      workload('Deployment', { containers: [bare] }, { templateMetadata: appArmor }),
    ),
  ]),
];
