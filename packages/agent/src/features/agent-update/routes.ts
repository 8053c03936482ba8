import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { tagPattern } from './image-tag.ts';
import type { AgentUpdateContext } from './module.ts';
import { selfUpgrade } from './service.ts';

const SelfUpgradeBody = Type.Object(
  {
    tag: Type.String({
      pattern: tagPattern,
      description:
        "the image tag to run, e.g. latestVersion of GET /api/version-check; the image's repository stays as deployed",
    }),
  },
  { additionalProperties: false },
);
const SelfUpgradeResult = Type.Object({
  status: Type.Literal('upgrade initiated'),
  image: Type.String({ description: 'the image the Deployment now names' }),
});

/** An in-cluster agent moving its own Deployment to another image tag (charts/binnacle-agent, rbac.selfUpgrade). */
export function agentUpdateRoutes(app: App, ctx: AgentUpdateContext): void {
  app.post(
    '/api/agent/self-upgrade',
    {
      // The service authorises the caller itself (hub owner in cloud mode, else patch on the Deployment).
      config: callerAware,
      schema: {
        tags: ['agent'],
        summary: "Move the agent's own Deployment to another image tag",
        querystring: Query({}),
        body: SelfUpgradeBody,
        response: { 200: SelfUpgradeResult, ...errorResponses },
      },
    },
    (request) => selfUpgrade(ctx, request.caller, request.body.tag),
  );
}
