import { AppError, errorResponses, Query, TimeOrDuration } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { callerView } from '../../http/caller-view.ts';
import { requestedMoment, requestedNamespaces } from '../../http/query.ts';
import { GroupParam, KindParam, ObjectNameParam } from '../../http/schemas.ts';
import { iso } from '../../scope/history/cluster-history.ts';
import type { TimeTravelContext } from './module.ts';
import { changesBetween, changesLimit } from './service.ts';

const tags = ['timetravel'];
const Moment = (description: string) => TimeOrDuration({ maxLength: 64, description });
const Named = { name: Type.String(), uid: Type.Optional(Type.String()) };
const FieldChange = Type.Object({
  path: Type.String({ description: 'the field, e.g. spec.template.spec.containers[app].image' }),
  old: Type.Optional(Type.Unknown()),
  new: Type.Optional(Type.Unknown()),
});
const ChangeGroup = Type.Object({
  kind: Type.String(),
  group: Type.String(),
  namespace: Type.Optional(Type.String()),
  created: Type.Array(Type.Object(Named)),
  deleted: Type.Array(Type.Object(Named)),
  modified: Type.Array(
    Type.Object({ ...Named, fields: Type.Array(FieldChange), moreFields: Type.Optional(Type.Boolean()) }),
  ),
});

export function timeTravelRoutes(app: App, ctx: TimeTravelContext): void {
  app.get(
    '/api/timetravel',
    {
      schema: {
        tags,
        summary:
          'The moments the cluster can be seen as it was (`at=`): the kept window of one kind, or the widest over every kind, and what the history holds',
        querystring: Query({
          kind: Type.Optional(KindParam),
          group: Type.Optional(GroupParam),
        }),
        response: {
          200: Type.Object({
            oldest: Type.Optional(Type.String({ description: 'RFC 3339; absent until a kind has synced' })),
            newest: Type.Optional(Type.String()),
            objects: Type.Integer({ description: 'objects with kept states' }),
            versions: Type.Integer({ description: 'states kept, current ones included' }),
            pastBytes: Type.Integer({ description: 'size of the past states as JSON' }),
          }),
          ...errorResponses,
        },
      },
    },
    (request) => {
      const { kind, group } = request.query;
      const { window, ...held } = ctx.history.summary(kind ? ctx.cluster.resolve(kind, group) : undefined);
      return { ...(window ? { oldest: iso(window.oldest), newest: iso(window.newest) } : {}), ...held };
    },
  );

  app.get(
    '/api/changes/between',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'What was created, deleted and modified between two moments, by kind and namespace, with field diffs (time travel); `kind` (and `name`, with `namespace` for a namespaced kind) narrows it to one kind (one object: its diff between the moments)',
        querystring: Query({
          from: Moment('the earlier moment: RFC 3339, or a duration back from now (90m)'),
          to: Type.Optional(Moment('the later moment (default: now)')),
          namespace: Type.Optional(Type.String({ minLength: 1, maxLength: 63 })),
          namespaces: Type.Optional(Type.String({ minLength: 1, description: 'comma-separated namespaces' })),
          kind: Type.Optional(KindParam),
          group: Type.Optional(GroupParam),
          name: Type.Optional(ObjectNameParam),
          limit: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: changesLimit.max,
              default: changesLimit.default,
              description: 'objects listed (the counts are always whole)',
            }),
          ),
        }),
        response: {
          200: Type.Object({
            from: Type.String(),
            to: Type.String(),
            groups: Type.Array(ChangeGroup),
            counts: Type.Object({
              created: Type.Integer(),
              deleted: Type.Integer(),
              modified: Type.Integer(),
            }),
            notKept: Type.Array(Type.String(), {
              description:
                'kinds whose kept past does not reach back to `from`; their changes are not listed',
            }),
            truncated: Type.Optional(
              Type.Boolean({
                description:
                  'more objects changed than `limit`: the first by kind, namespace and name are listed',
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const now = Date.now();
      const from = requestedMoment(q.from, 'from', now) ?? now;
      const to = requestedMoment(q.to, 'to', now) ?? now;
      if (q.name && !q.kind) throw new AppError('invalid_query', 'name needs a kind: the object to compare');
      const only = q.kind ? { resource: ctx.cluster.resolve(q.kind, q.group), name: q.name } : undefined;
      const view = await callerView(ctx, request.caller, requestedNamespaces(q));
      return changesBetween(ctx, view, { from, to, ...(only ? { only } : {}) }, q.limit);
    },
  );
}
