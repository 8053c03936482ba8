import { badRequest, errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { NamespaceParam } from '../../http/schemas.ts';
import type { TrafficPairs } from '../../scope/topology/traffic-edges.ts';
import { trafficWindowPattern } from '../../scope/traffic/window.ts';
import { evaluateConnection } from './evaluate.ts';
import { reachabilityMatrix } from './matrix.ts';
import type { Destination, Source } from './model.ts';
import type { NetpolContext } from './module.ts';
import { Evaluation, ImpactAnswer, ProposalAnswer, Protocol } from './schemas.ts';
import {
  impactLimits,
  mayEvaluate,
  policyImpact,
  policyRefPattern,
  proposeForNamespace,
  snapshotOf,
} from './service.ts';

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

const namespaceOf = (end: Source | Destination) =>
  'pod' in end
    ? end.pod.namespace
    : 'service' in end
      ? end.service.namespace
      : 'namespace' in end
        ? end.namespace
        : undefined;

const since = Type.Optional(
  Type.String({
    pattern: trafficWindowPattern,
    description: 'the window of observed traffic back from now: 10s to 3600s, 1m to 60m or 1h (default 5m)',
  }),
);

const proposedYaml = Type.String({
  maxLength: impactLimits.yamlChars,
  description: `networking.k8s.io/v1 NetworkPolicies, one YAML document each with metadata.namespace (at most ${impactLimits.policies}); one with the name of an existing policy replaces it`,
});
const deleted = Type.Array(Type.String({ pattern: policyRefPattern, description: '<namespace>/<name>' }), {
  maxItems: impactLimits.policies,
  description: 'NetworkPolicies deleted',
});

export function networkPolicyRoutes(app: App, ctx: NetpolContext, pairs: TrafficPairs): void {
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
        return reachabilityMatrix(snapshotOf(ctx), q.matrix, { port: q.port, protocol });
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
      return evaluateConnection(snapshotOf(ctx), { source, destination, port: q.port, protocol });
    },
  );

  app.post(
    '/api/network-policies/impact',
    {
      config: callerAware,
      schema: {
        tags: ['traffic'],
        summary:
          'What a proposed change of NetworkPolicies (new or edited ones as YAML, deleted ones by name) would newly deny or newly allow among the flows observed in its namespaces, per workload pair and port with the deciding rule, and each namespace’s reachability matrix before and after; nothing is changed',
        querystring: Query({}),
        // One of yaml and delete at least: an empty change is refused by the service, naming both.
        body: Type.Object(
          { yaml: Type.Optional(proposedYaml), delete: Type.Optional(deleted), since },
          { additionalProperties: false },
        ),
        response: { 200: ImpactAnswer, ...errorResponses },
      },
    },
    async (request) => policyImpact(ctx, pairs, request.caller, request.body),
  );

  app.post(
    '/api/network-policies/propose',
    {
      config: callerAware,
      schema: {
        tags: ['traffic'],
        summary:
          'Least-privilege NetworkPolicies for a namespace: per workload, ingress and egress rules allowing exactly the flows observed in the window (pods selected by their stable labels, other namespaces by kubernetes.io/metadata.name, ports as seen), as YAML with their impact; nothing is applied',
        querystring: Query({}),
        body: Type.Object(
          {
            namespace: NamespaceParam,
            since,
            workloads: Type.Optional(
              Type.Array(Type.String({ minLength: 5, maxLength: 600 }), {
                minItems: 1,
                maxItems: impactLimits.workloads,
                description:
                  'workload ids (`deployment/<ns>/<name>`) to write policies for; absent: every workload of the namespace',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: ProposalAnswer, ...errorResponses },
      },
    },
    async (request) => proposeForNamespace(ctx, pairs, request.caller, request.body),
  );
}
