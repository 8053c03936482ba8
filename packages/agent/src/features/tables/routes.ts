import { errorResponses, sseEvents } from '@binnacle/common/server';
import type { Static } from 'typebox';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { namespacesToList } from '../../http/caller-view.ts';
import { csv, requestedMoment, requestedNamespaces } from '../../http/query.ts';
import { KindParam } from '../../http/schemas.ts';
import type { Impersonation } from '../../kube/client.ts';
import type { TablesContext } from './module.ts';
import { TableQuerySchema, TableWindowQuerySchema, TableWindowSchema, tableStreamEvents } from './schemas.ts';
import { type TableQuery, TableService, tableLimits } from './service.ts';
import { TableStreams, tableStreamLimits } from './stream.ts';

const tags = ['tables'];
const params = Type.Object({ kind: KindParam });

export function tableRoutes(app: App, ctx: TablesContext): void {
  const tables = new TableService(ctx);
  const streams = new TableStreams(ctx, tables);
  app.addHook('preClose', (done) => {
    streams.close();
    tables.close();
    done();
  });

  /** The query as the service takes it, with the namespaces the caller may list the kind in. */
  const tableQuery = async (
    kind: string,
    q: Static<typeof TableWindowQuerySchema>,
    caller: Impersonation | undefined,
  ): Promise<TableQuery> => {
    const resource = ctx.cluster.resolve(kind, q.group);
    return {
      kind,
      group: q.group,
      namespaces: await namespacesToList(ctx, caller, resource, requestedNamespaces(q)),
      labelSelector: q.labelSelector,
      filter: q.filter || undefined,
      status: csv(q.status),
      sort: q.sort,
      order: q.order,
      offset: q.offset ?? 0,
      limit: q.limit ?? tableLimits.limit.default,
      at: requestedMoment(q.at, 'at'),
    };
  };

  app.get(
    '/api/tables/:kind',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          "A window of a kind's table as kubectl prints it (CPU and MEMORY for pods and nodes when metrics are served): filtered, sorted, with the exact total and the status counts. Kinds the agent does not cache are listed live.",
        params,
        querystring: TableWindowQuerySchema,
        response: { 200: TableWindowSchema, ...errorResponses },
      },
    },
    async (request) => tables.window(await tableQuery(request.params.kind, request.query, request.caller)),
  );

  app.get(
    '/api/tables/:kind/stream',
    {
      config: callerAware,
      schema: {
        tags,
        summary: `SSE of a table window: "window" (as GET /api/tables/{kind} answers), then "patch" with only what changed in it ({rows, removed, order, total, statuses}, at most ${1000 / tableStreamLimits.minIntervalMs} a second), a new "window" when the columns change, "error" when the kind cannot be read for now (the rows shown stay), "heartbeat" every 30 s, "end" when the agent ends the stream. At most ${tableStreamLimits.clients} clients.`,
        produces: ['text/event-stream'],
        params,
        querystring: TableQuerySchema,
        response: sseEvents(tableStreamEvents),
      },
    },
    async (request, reply) => {
      await streams.open(reply, await tableQuery(request.params.kind, request.query, request.caller));
    },
  );
}
