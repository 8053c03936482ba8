import { badRequest, errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware, requireAccess } from '../../http/caller.ts';
import { NamespaceParam } from '../../http/schemas.ts';
import type { Impersonation } from '../../kube/client.ts';
import { evaluateConnection } from './evaluate.ts';
import { reachabilityMatrix } from './matrix.ts';
import type { ClusterSnapshot, Destination, Source } from './model.ts';
import type { NetpolContext } from './module.ts';
import { Evaluation, Protocol } from './schemas.ts';

const Endpoint = (what: string, kinds: string) =>
  Type.Optional(Type.String({ minLength: 3, maxLength: 600, description: `the ${what}: ${kinds}` }));

/** `pod/<ns>/<name>`, `service/<ns>/<name>` or `ip/<address>`, as the query names an end of the connection. */
function endpoint(field: string, text: string, allowed: readonly string[]): Source & Destination {
  const [kind = '', ...rest] = text.split('/');
  if (kind === 'ip' && rest.length >= 1 && allowed.includes('ip')) return { ip: rest.join('/') };
  const [namespace, name] = rest;
  if (allowed.includes(kind) && kind !== 'ip' && rest.length === 2 && namespace && name)
    return (kind === 'pod' ? { pod: { namespace, name } } : { service: { namespace, name } }) as Source &
      Destination;
  const form = (k: string) =>
    k !== 'ip' ? `${k}/<namespace>/<name>` : field === 'source' ? 'ip/<address>[/<prefix>]' : 'ip/<address>';
  throw badRequest(`${field} "${text}" is not one of ${allowed.map(form).join(', ')}`);
}

/** `app=web,tier=front` into labels; anything else is a 400 naming the field. */
function labels(field: string, text: string): Record<string, string> {
  const entries = text.split(',').map((pair) => pair.split('='));
  if (entries.some((e) => e.length !== 2 || !e[0]))
    throw badRequest(`${field} "${text}" is not a comma-separated list of key=value labels`);
  return Object.fromEntries(entries as [string, string][]);
}

/** The objects an evaluation reads, from the cache (403 when the agent may not list them, 503 while they load). */
function snapshot(ctx: NetpolContext): ClusterSnapshot {
  const list = (kind: string, group?: string) => ctx.cluster.cache.list(ctx.cluster.resolve(kind, group));
  return {
    namespaces: list('namespaces'),
    pods: list('pods'),
    services: list('services'),
    policies: list('networkpolicies', 'networking.k8s.io'),
  };
}

/** The caller may see the pods and the policies of every namespace the question involves. */
async function mayEvaluate(ctx: NetpolContext, caller: Impersonation | undefined, namespaces: Set<string>) {
  for (const namespace of namespaces) {
    await requireAccess(ctx, caller, { verb: 'list', group: '', resource: 'pods', namespace });
    await requireAccess(ctx, caller, {
      verb: 'list',
      group: 'networking.k8s.io',
      resource: 'networkpolicies',
      namespace,
    });
  }
}

const namespaceOf = (end: Source | Destination) =>
  'pod' in end
    ? end.pod.namespace
    : 'service' in end
      ? end.service.namespace
      : 'namespace' in end
        ? end.namespace
        : undefined;

export function networkPolicyRoutes(app: App, ctx: NetpolContext): void {
  app.get(
    '/api/network-policies/evaluate',
    {
      config: callerAware,
      schema: {
        tags: ['traffic'],
        summary:
          'Whether NetworkPolicies allow a connection (egress of the source, ingress of the destination) and the exact rules that decide it; or, with matrix=<namespace>, every pod pair of a namespace',
        querystring: Query({
          source: Endpoint(
            'source',
            'pod/<ns>/<name>, ip/<address> or ip/<address>/<prefix> (outside the cluster; a block needs a port)',
          ),
          sourceNamespace: Type.Optional(NamespaceParam),
          sourceLabels: Type.Optional(
            Type.String({
              minLength: 3,
              maxLength: 2000,
              description: 'with sourceNamespace: a pod that would carry these labels (k=v,…)',
            }),
          ),
          destination: Endpoint('destination', 'pod/<ns>/<name>, service/<ns>/<name> or ip/<address>'),
          port: Type.Optional(
            Type.Integer({ minimum: 1, maximum: 65535, description: 'absent: is any port open end to end' }),
          ),
          protocol: Type.Optional(Protocol),
          matrix: Type.Optional({
            ...NamespaceParam,
            description: 'every pod of this namespace to every other',
          }),
        }),
        response: { 200: Evaluation, ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const protocol = q.protocol;
      if (q.matrix) {
        if (q.source || q.destination || q.sourceNamespace)
          throw badRequest('matrix answers every pair of a namespace: leave out source and destination');
        await mayEvaluate(ctx, request.caller, new Set([q.matrix]));
        return reachabilityMatrix(snapshot(ctx), q.matrix, { port: q.port, protocol });
      }
      if (!q.destination) throw badRequest('destination is required (or matrix=<namespace>)');
      if (Boolean(q.source) === Boolean(q.sourceNamespace))
        throw badRequest('give either source or sourceNamespace with sourceLabels');
      const source: Source = q.source
        ? endpoint('source', q.source, ['pod', 'ip'])
        : {
            namespace: q.sourceNamespace as string,
            labels: q.sourceLabels ? labels('sourceLabels', q.sourceLabels) : {},
          };
      const destination: Destination = endpoint('destination', q.destination, ['pod', 'service', 'ip']);
      const namespaces = new Set(
        [namespaceOf(source), namespaceOf(destination)].filter((n) => n !== undefined),
      );
      await mayEvaluate(ctx, request.caller, namespaces);
      return evaluateConnection(snapshot(ctx), { source, destination, port: q.port, protocol });
    },
  );
}
