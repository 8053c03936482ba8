import { errorResponses, Query } from '@binnacle/common/server';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import type { SelectionContext } from './module.ts';
import { SelectionImpactAnswer, SelectionImpactRequest } from './schemas.ts';
import { selectionImpact } from './service.ts';

/** POST /api/selection-impact: which objects gain or lose pods if an edit were applied (docs/adr/0124). */
export function selectionRoutes(app: App, ctx: SelectionContext): void {
  app.post(
    '/api/selection-impact',
    {
      config: callerAware,
      schema: {
        tags: ['resources'],
        summary:
          'Which Services, PDBs, NetworkPolicies, workloads and HPAs gain or lose pods if this object were applied (a server-side-apply dry run; nothing is written)',
        description:
          "The edited object is what the API server's dry run answers, as the caller (who needs `patch` on it); the objects it affects are read from the agent's cache, in the namespaces the caller may see. A workload's new template relabels its current pods, as its rollout would. An edit the API server refuses as invalid is judged as sent, with the refusal in `dryRun`.",
        querystring: Query({}),
        body: SelectionImpactRequest,
        response: { 200: SelectionImpactAnswer, ...errorResponses },
      },
    },
    (request) => selectionImpact(ctx, request.caller, request.body),
  );
}
