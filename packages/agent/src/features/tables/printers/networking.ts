import {
  age,
  ageColumn,
  arr,
  column,
  formatLabelSelector,
  formatLabels,
  type Json,
  obj,
  str,
  strings,
} from './format.ts';
import type { Printer } from './index.ts';

/** Printers of Services and the networking and discovery groups (ADR 0053). */

/** At most three items, then `+ N more...`; `empty` when there are none. */
function listWithMore(items: string[], count: number, empty: string): string {
  const text = items.slice(0, 3).join(',');
  if (count > 3) return `${text} + ${count - 3} more...`;
  return text === '' ? empty : text;
}

/** The distinct load-balancer IPs (else hostnames), sorted, as the printers' load-balancer stringer. */
function loadBalancerAddresses(status: unknown): string[] {
  const addresses = new Set<string>();
  for (const ingress of arr(obj(obj(status).loadBalancer).ingress)) {
    const address = str(ingress.ip) || str(ingress.hostname);
    if (address) addresses.add(address);
  }
  return [...addresses].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function serviceExternalIp(spec: Json, status: unknown): string | null {
  const externalIps = strings(spec.externalIPs);
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIps.length > 0 ? externalIps.join(',') : null;
    case 'LoadBalancer': {
      const all = [...loadBalancerAddresses(status), ...externalIps];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return str(spec.externalName);
    default:
      return '<unknown>';
  }
}

export const servicePrinter: Printer = {
  columns: [
    column('TYPE'),
    column('CLUSTER-IP'),
    column('EXTERNAL-IP'),
    column('PORT(S)'),
    ageColumn,
    column('SELECTOR', 'string', 1),
  ],
  print(object) {
    const spec = obj(object.spec);
    const ports = arr(spec.ports).map((port) => {
      const nodePort = typeof port.nodePort === 'number' && port.nodePort > 0 ? `:${port.nodePort}` : '';
      return `${String(port.port ?? 0)}${nodePort}/${str(port.protocol)}`;
    });
    return {
      cells: [
        str(spec.type),
        strings(spec.clusterIPs)[0] ?? null,
        serviceExternalIp(spec, object.status),
        ports.length > 0 ? ports.join(',') : null,
        age(object),
        formatLabels(spec.selector),
      ],
    };
  },
};

const hostPort = (ip: string, port: unknown) => `${ip.includes(':') ? `[${ip}]` : ip}:${String(port ?? 0)}`;

/** ENDPOINTS of an Endpoints object: `ip:port` per address and port, at most three shown. */
function formatEndpoints(subsets: Json[]): string | null {
  if (subsets.length === 0) return null;
  const list: string[] = [];
  let count = 0;
  for (const subset of subsets) {
    const addresses = arr(subset.addresses).map((address) => str(address.ip));
    const ports = arr(subset.ports);
    if (ports.length === 0) {
      count += addresses.length;
      list.push(...addresses);
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      list.push(...addresses.map((ip) => hostPort(ip, port.port)));
    }
  }
  return listWithMore(list, count, '');
}

export const endpointsPrinter: Printer = {
  columns: [column('ENDPOINTS'), ageColumn],
  print: (object) => ({ cells: [formatEndpoints(arr(object.subsets)), age(object)] }),
};

export const endpointSlicePrinter: Printer = {
  columns: [column('ADDRESSTYPE'), column('PORTS'), column('ENDPOINTS'), ageColumn],
  print(object) {
    const ports = arr(object.ports).map((port) =>
      typeof port.port === 'number' ? String(port.port) : typeof port.name === 'string' ? port.name : '*',
    );
    const addresses = arr(object.endpoints).flatMap((endpoint) => strings(endpoint.addresses));
    return {
      cells: [
        str(object.addressType),
        listWithMore(ports, ports.length, '<unset>'),
        listWithMore(addresses, addresses.length, '<unset>'),
        age(object),
      ],
    };
  },
};

function formatHosts(rules: Json[]): string {
  const hosts: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (hosts.length === 3) more = true;
    if (!more && str(rule.host) !== '') hosts.push(str(rule.host));
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${rules.length - 3} more...` : hosts.join(',');
}

export const ingressPrinter: Printer = {
  columns: [column('CLASS'), column('HOSTS'), column('ADDRESS'), column('PORTS'), ageColumn],
  print(object) {
    const spec = obj(object.spec);
    return {
      cells: [
        typeof spec.ingressClassName === 'string' ? spec.ingressClassName : null,
        formatHosts(arr(spec.rules)),
        loadBalancerAddresses(object.status).join(','),
        arr(spec.tls).length > 0 ? '80, 443' : '80',
        age(object),
      ],
    };
  },
};

export const ingressClassPrinter: Printer = {
  columns: [column('CONTROLLER'), column('PARAMETERS'), ageColumn],
  print(object) {
    const spec = obj(object.spec);
    const parameters = spec.parameters === undefined ? undefined : obj(spec.parameters);
    const group = parameters && typeof parameters.apiGroup === 'string' ? `.${parameters.apiGroup}` : '';
    return {
      cells: [
        str(spec.controller),
        parameters ? `${str(parameters.kind)}${group}/${str(parameters.name)}` : null,
        age(object),
      ],
    };
  },
};

export const networkPolicyPrinter: Printer = {
  columns: [column('POD-SELECTOR'), ageColumn],
  print: (object) => ({
    cells: [formatLabelSelector(obj(obj(object.spec).podSelector)), age(object)],
  }),
};

export const serviceCidrPrinter: Printer = {
  columns: [column('CIDRS'), ageColumn],
  print: (object) => ({ cells: [strings(obj(object.spec).cidrs).join(','), age(object)] }),
};

/** PARENTREF: `resource.group/namespace/name` of the object the address is allocated to. (No AGE: the server
 * defines no such column for it, and kubectl drops the cell it sends.) */
export const ipAddressPrinter: Printer = {
  columns: [column('PARENTREF')],
  print(object) {
    const parent = obj(obj(object.spec).parentRef);
    if (Object.keys(parent).length === 0) return { cells: [null] };
    const resource = str(parent.group)
      ? `${str(parent.resource)}.${str(parent.group)}`
      : str(parent.resource);
    const namespace = str(parent.namespace) ? `/${str(parent.namespace)}` : '';
    return { cells: [`${resource.toLowerCase()}${namespace}/${str(parent.name)}`] };
  },
};
