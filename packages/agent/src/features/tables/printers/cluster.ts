import type { StatusTone } from '@binnacle/common';
import { age, ageColumn, arr, column, goBool, num, obj, str } from './format.ts';
import type { Printer } from './index.ts';

/** Printers of nodes and the cluster-wide scheduling, node and coordination kinds (ADR 0053). */

const rolePrefix = 'node-role.kubernetes.io/';

function nodeRoles(labels: Record<string, string> | undefined): string | null {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(labels ?? {})) {
    if (key.startsWith(rolePrefix) && key.length > rolePrefix.length) roles.add(key.slice(rolePrefix.length));
    else if (key === 'kubernetes.io/role' && value !== '') roles.add(value);
  }
  return roles.size === 0 ? null : [...roles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join(',');
}

/** STATUS: the Ready condition (`Ready`, `NotReady`, else `Unknown`), `,SchedulingDisabled` when cordoned. */
export function nodeStatus(node: { spec?: unknown; status?: unknown }): string {
  const ready = arr(obj(node.status).conditions).findLast((condition) => condition.type === 'Ready');
  const parts = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (obj(node.spec).unschedulable === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

const address = (addresses: unknown, type: string) =>
  str(arr(addresses).find((entry) => entry.type === type)?.address) || null;

export const nodePrinter: Printer = {
  columns: [
    column('STATUS'),
    column('ROLES'),
    ageColumn,
    column('VERSION'),
    column('INTERNAL-IP', 'string', 1),
    column('EXTERNAL-IP', 'string', 1),
    column('OS-IMAGE', 'string', 1),
    column('KERNEL-VERSION', 'string', 1),
    column('CONTAINER-RUNTIME', 'string', 1),
  ],
  print(node) {
    const status = obj(node.status);
    const info = obj(status.nodeInfo);
    const architecture = str(info.architecture);
    const kernel = str(info.kernelVersion) || '<unknown>';
    const text = nodeStatus(node);
    const tone: StatusTone = text === 'Ready' ? 'ok' : 'warning';
    return {
      cells: [
        text,
        nodeRoles(node.metadata?.labels),
        age(node),
        str(info.kubeletVersion),
        address(status.addresses, 'InternalIP'),
        address(status.addresses, 'ExternalIP'),
        str(info.osImage) || '<unknown>',
        architecture ? `${kernel} (${architecture})` : kernel,
        str(info.containerRuntimeVersion) || '<unknown>',
      ],
      status: { text, tone },
    };
  },
};

export const priorityClassPrinter: Printer = {
  // The server fills PREEMPTIONPOLICY only for `-o wide` although it does not mark the column wide.
  columns: [column('VALUE', 'integer'), column('GLOBAL-DEFAULT'), ageColumn, column('PREEMPTIONPOLICY')],
  print: (object) => ({
    cells: [num(object.value), goBool(object.globalDefault), age(object), str(object.preemptionPolicy)],
  }),
};

export const runtimeClassPrinter: Printer = {
  columns: [column('HANDLER'), ageColumn],
  print: (object) => ({ cells: [str(object.handler), age(object)] }),
};

export const leasePrinter: Printer = {
  columns: [column('HOLDER'), ageColumn],
  print: (object) => ({ cells: [str(obj(object.spec).holderIdentity), age(object)] }),
};
