import { boundedTextContent } from '@binnacle/common';
import { ComparedObjectParam, toAppError } from '@binnacle/common/server';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
import type { HubContext } from '../../context.ts';
import type { Principal } from '../../security/principal.ts';
import { compareAcrossClusters } from '../../services/clusters/compare.ts';
import type { ClusterRef } from '../../services/clusters/fan-out.ts';

type Deps = Pick<HubContext, 'accessCache' | 'clock' | 'database' | 'log' | 'replicas' | 'tunnels'>;

const ClusterName = Type.String({
  minLength: 1,
  maxLength: 253,
  description: 'a cluster id or name (list_clusters)',
});
const Moment = Type.String({
  maxLength: 64,
  description: 'read that side as it was then: RFC 3339 or a duration back from now (90m)',
});
const CompareArgs = Type.Object(
  {
    kind: Type.String({
      minLength: 1,
      maxLength: 253,
      pattern: '^[A-Za-z0-9][A-Za-z0-9.-]*$',
      description: 'plural, singular, Kind or short name: deploy, ConfigMap',
    }),
    group: Type.Optional(
      Type.String({ maxLength: 253, description: 'API group, when a kind name exists in several' }),
    ),
    left_cluster: ClusterName,
    left: ComparedObjectParam,
    right_cluster: ClusterName,
    right: ComparedObjectParam,
    left_at: Type.Optional(Moment),
    right_at: Type.Optional(Moment),
  },
  { additionalProperties: false },
);

/** The hub's own tool for what no single cluster can answer: one object against another in another cluster. */
export const compareTool: Tool = {
  name: 'compare_across_clusters',
  title: 'Compare two objects across clusters',
  description:
    'Two objects of one kind in two clusters of your organisation (or one), field by field — e.g. the checkout Deployment in staging and in production — each read as you through its cluster. List elements are matched by name; status, fields the server generates (uid, resourceVersion, hashes, cluster IPs) and defaults one side lacks are folded apart. Secret values are never returned, only whether they differ. Sides are `<namespace>/<name>` (`_/<name>` for a cluster-scoped kind).',
  inputSchema: JSON.parse(JSON.stringify(CompareArgs)) as Tool['inputSchema'],
  annotations: { readOnlyHint: true, openWorldHint: false },
};

const failure = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** Runs `compare_across_clusters`: arguments checked, clusters named by id or name, the hub's compare. */
export async function runCompareTool(
  ctx: Deps,
  principal: Principal,
  args: unknown,
  resolveCluster: (wanted: unknown) => Promise<ClusterRef>,
): Promise<CallToolResult> {
  if (!Value.Check(CompareArgs, args)) {
    const [first] = Value.Errors(CompareArgs, args);
    return failure(
      `invalid_request: ${first ? `${first.instancePath || 'arguments'} ${first.message}` : 'bad arguments'}`,
    );
  }
  const given = args as Static<typeof CompareArgs>;
  const [left, right] = await Promise.all([
    resolveCluster(given.left_cluster),
    resolveCluster(given.right_cluster),
  ]);
  try {
    const answer = await compareAcrossClusters(ctx, principal, {
      kind: given.kind,
      group: given.group,
      left: { clusterId: left.id, ref: given.left, at: given.left_at },
      right: { clusterId: right.id, ref: given.right, at: given.right_at },
    });
    return { content: boundedTextContent(JSON.stringify(answer), 'compare fewer fields: pick the objects') };
  } catch (error) {
    const appError = toAppError(error);
    return failure(`${appError.code}: ${appError.message}`);
  }
}
