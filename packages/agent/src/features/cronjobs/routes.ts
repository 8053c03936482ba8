import { errorResponses, Query } from '@binnacle/common/server';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { actionAnswer, NamespaceParam, ObjectNameParam } from '../../http/schemas.ts';
import { performAction } from '../../scope/actions.ts';
import type { CronjobsContext } from './module.ts';
import { setCronJobSuspended, triggerCronJob } from './service.ts';

const tags = ['cronjobs'];
const Params = Type.Object({ namespace: NamespaceParam, name: ObjectNameParam });
type Request = FastifyRequest<{ Params: { namespace: string; name: string } }>;
const Suspension = Type.Object({
  ...actionAnswer,
  suspended: Type.Boolean(),
  changed: Type.Boolean({ description: 'false when the CronJob already was in that state' }),
});

export function cronJobRoutes(app: App, ctx: CronjobsContext): void {
  const act = <T extends { message: string; uid?: string }>(
    request: Request,
    action: string,
    work: (namespace: string, name: string) => Promise<T>,
  ) => {
    const { namespace, name } = request.params;
    const target = { kind: 'CronJob', group: 'batch', namespace, name };
    return performAction(ctx, request.caller, action, target, () => work(namespace, name));
  };
  const schema = (summary: string, answer: ReturnType<typeof Type.Object>) => ({
    tags,
    summary,
    params: Params,
    querystring: Query({}),
    response: { 200: answer, ...errorResponses },
  });

  app.post(
    '/api/cronjobs/:namespace/:name/trigger',
    {
      config: callerAware,
      schema: schema(
        'Run the CronJob now: a Job from its jobTemplate, owned by the CronJob and annotated cronjob.kubernetes.io/instantiate: manual (as `kubectl create job --from=cronjob/`)',
        Type.Object({ ...actionAnswer, jobName: Type.String() }),
      ),
    },
    (request) =>
      act(request, 'trigger', (namespace, name) => triggerCronJob(ctx, namespace, name, request.caller)),
  );

  for (const [action, suspend] of [
    ['suspend', true],
    ['resume', false],
  ] as const) {
    app.post(
      `/api/cronjobs/:namespace/:name/${action}`,
      {
        config: callerAware,
        schema: schema(
          suspend
            ? 'Stop scheduling new Jobs (spec.suspend: true); running Jobs go on'
            : 'Schedule Jobs again (spec.suspend: false)',
          Suspension,
        ),
      },
      (request) =>
        act(request, action, (namespace, name) =>
          setCronJobSuspended(ctx, namespace, name, suspend, request.caller),
        ),
    );
  }
}
