import type { KubeObject } from '@binnacle/common';
import type { Health } from '../../kube/health.ts';
import { type FindingCounts, objectKey } from '../audit/report.ts';
import type { AuditCounts } from '../audit/tally.ts';
import { secretKey } from '../certificates/certmanager.ts';
import { tlsSecretType } from '../certificates/parse.ts';
import { parsedSecret } from '../certificates/report.ts';
import type { Severity } from '../certificates/severity.ts';
import type { TopologyInput } from './builder.ts';
import type { Topology, TopologyNode } from './model.ts';

/** What the graph's nodes show beside their runtime health. */
export interface TopologyFindings {
  /** The audit's counts in the graph's namespaces (settings applied); absent when the audit could not run. */
  audit?: AuditCounts;
  /** Whether the caller may read Secrets, and so the certificates they hold. */
  certificates: boolean;
}

/** The certificate a node serves, as its node shows it. */
interface NodeCertificate {
  secret: string;
  severity: Severity;
  daysLeft: number | null;
  notAfter: string | null;
}

type Obj = Record<string, unknown>;
const list = (value: unknown): Obj[] => (Array.isArray(value) ? (value as Obj[]) : []);
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The Secrets an Ingress (spec.tls) or Gateway (listeners' certificateRefs) serves certificates from. */
function servedSecrets(object: KubeObject): { namespace: string; name: string }[] {
  const namespace = object.metadata?.namespace ?? '';
  const spec = (object.spec ?? {}) as Obj;
  if (object.kind === 'Ingress') {
    return list(spec.tls).flatMap((tls) => {
      const name = text(tls.secretName);
      return name ? [{ namespace, name }] : [];
    });
  }
  if (object.kind === 'Gateway') {
    return list(spec.listeners).flatMap((listener) =>
      list((listener.tls as Obj | undefined)?.certificateRefs).flatMap((ref) => {
        const name = text(ref.name);
        const isSecret = (text(ref.kind) ?? 'Secret') === 'Secret' && !text(ref.group);
        return name && isSecret ? [{ namespace: text(ref.namespace) ?? namespace, name }] : [];
      }),
    );
  }
  if (object.kind === 'Secret' && object.type === tlsSecretType)
    return [{ namespace, name: object.metadata?.name ?? '' }];
  return [];
}

const worse: Record<Severity, number> = { expired: 0, invalid: 1, critical: 2, warning: 3, ok: 4 };
/** Certificates that break the object now, or soon, lower its health; a warning does not. */
const healthFor: Partial<Record<Severity, Health>> = {
  expired: 'unhealthy',
  invalid: 'unhealthy',
  critical: 'degraded',
};
const healthRank: Record<Health, number> = { unhealthy: 0, degraded: 1, unknown: 2, healthy: 3 };

/** Each certificate-serving object's most urgent certificate, keyed `kind/namespace/name`. */
function certificatesByObject(input: TopologyInput, now: number): Map<string, NodeCertificate> {
  const tlsSecrets = new Map(
    (input.Secret ?? [])
      .filter((s) => s.type === tlsSecretType)
      .map((s) => [secretKey(s.metadata?.namespace ?? '', s.metadata?.name ?? ''), s]),
  );
  const parsed = (namespace: string, name: string) => {
    const secret = tlsSecrets.get(secretKey(namespace, name));
    return secret ? parsedSecret(secret, now) : undefined;
  };
  const served = new Map<string, NodeCertificate>();
  for (const object of [...(input.Ingress ?? []), ...(input.Gateway ?? []), ...(input.Secret ?? [])]) {
    for (const ref of servedSecrets(object)) {
      const item = parsed(ref.namespace, ref.name);
      if (!item) continue;
      const key = objectKey({
        kind: object.kind ?? '',
        namespace: object.metadata?.namespace,
        name: object.metadata?.name ?? '',
      });
      const current = served.get(key);
      if (current && worse[current.severity] <= worse[item.severity]) continue;
      served.set(key, {
        secret: `${ref.namespace}/${ref.name}`,
        severity: item.severity,
        daysLeft: item.daysLeft,
        notAfter: item.notAfter,
      });
    }
  }
  return served;
}

function decorated(
  node: TopologyNode,
  audit: FindingCounts | undefined,
  certificate: NodeCertificate | undefined,
): TopologyNode {
  if (!audit && !certificate) return node;
  const lowered = certificate ? healthFor[certificate.severity] : undefined;
  return {
    ...node,
    status: lowered && healthRank[lowered] < healthRank[node.status] ? lowered : node.status,
    data: { ...node.data, ...(audit ? { audit } : {}), ...(certificate ? { certificate } : {}) },
  };
}

/**
 * The graph with each object's audit counts (`data.audit`: warning, danger) and, for Ingresses, Gateways and TLS
 * Secrets, their most urgent certificate (`data.certificate`); an expired or unreadable certificate makes its object
 * unhealthy, one within 7 days of expiry degraded. A graph collapsed to namespaces counts the audit per namespace.
 */
export function withFindings(
  topology: Topology,
  input: TopologyInput,
  findings: TopologyFindings,
  now: number,
): Topology {
  const { audit } = findings;
  if (topology.collapsedToNamespaces) {
    return {
      ...topology,
      nodes: topology.nodes.map((node) => decorated(node, audit?.ofNamespace(node.name), undefined)),
    };
  }
  const certificates = findings.certificates ? certificatesByObject(input, now) : new Map();
  if (!audit && certificates.size === 0) return topology;
  return {
    ...topology,
    nodes: topology.nodes.map((node) => {
      const key = objectKey(node);
      return decorated(node, audit?.ofObject(key), certificates.get(key));
    }),
  };
}
