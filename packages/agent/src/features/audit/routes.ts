import { AppError, errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { callerView, requireVisible } from '../../http/caller-view.ts';
import { requestedNamespaces } from '../../http/query.ts';
import { NamespaceParam } from '../../http/schemas.ts';
import { checkCatalogue } from '../../scope/audit/checks/catalogue.ts';
import { auditReport } from '../../scope/audit/report.ts';
import { defaultAuditSettings, readAuditSettings } from '../../scope/settings.ts';
import type { AuditContext } from './module.ts';
import { AuditReport, Category, ObjectAudit, Severity } from './schemas.ts';

/** The best-practice audit of the cached objects (not the hub's audit log): GET /api/audit and one object's. */
export function auditRoutes(app: App, ctx: AuditContext): void {
  const engine = ctx.audit;
  /** `raw`: the checks' own verdicts, without the local settings (a hub applies its own policy). */
  const settingsFor = async (raw?: boolean) => (raw ? defaultAuditSettings() : readAuditSettings(ctx));

  app.get(
    '/api/audit',
    {
      config: callerAware,
      schema: {
        tags: ['audit'],
        summary:
          'Best-practice findings (Security, Reliability, Efficiency) of the objects in the caller’s view, grouped per object, with the check catalogue; settings applied unless raw',
        querystring: Query({
          namespace: Type.Optional(NamespaceParam),
          namespaces: Type.Optional(Type.String({ minLength: 1, description: 'comma-separated namespaces' })),
          category: Type.Optional(Category),
          severity: Type.Optional(Severity),
          raw: Type.Optional(Type.Boolean({ description: 'ignore /api/settings/audit' })),
        }),
        response: { 200: AuditReport, ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const view = await callerView(ctx, request.caller, requestedNamespaces(q));
      const settings = await settingsFor(q.raw);
      const { findings, audited, loading } = engine.run({ namespaces: view.namespaces, settings });
      const visible = (kind: string) => !view.hiddenKinds.includes(kind);
      const shown = findings.filter(
        (f) =>
          visible(f.kind) &&
          (!q.category || f.category === q.category) &&
          (!q.severity || f.severity === q.severity),
      );
      return auditReport(
        audited.filter((o) => visible(o.kind ?? '')),
        shown,
        loading,
        settings.disabledChecks,
      );
    },
  );

  app.get(
    '/api/audit/resource/:kind/:namespace/:name',
    {
      config: callerAware,
      schema: {
        tags: ['audit'],
        summary:
          "One object's findings (namespace `_` for a cluster-scoped object); 404 when the object is not there",
        params: Type.Object({
          kind: Type.String({ minLength: 1, maxLength: 63 }),
          namespace: Type.String({ minLength: 1, maxLength: 63 }),
          name: Type.String({ minLength: 1, maxLength: 253 }),
        }),
        querystring: Query({ raw: Type.Optional(Type.Boolean()) }),
        response: { 200: ObjectAudit, ...errorResponses },
      },
    },
    async (request) => {
      const { kind: kindText, name } = request.params;
      const namespace = request.params.namespace === '_' ? undefined : request.params.namespace;
      const resource = ctx.cluster.resolve(kindText);
      const view = await callerView(ctx, request.caller, namespace ? [namespace] : undefined);
      requireVisible(request.caller, view, resource.kind, namespace);
      if (!ctx.cluster.cache.get(resource, name, resource.namespaced ? namespace : undefined))
        throw new AppError('not_found', `no ${resource.kind} ${namespace ? `${namespace}/` : ''}${name}`);
      const settings = await settingsFor(request.query.raw);
      const { findings } = engine.run({ namespaces: namespace ? [namespace] : undefined, settings });
      const own = findings.filter(
        (f) => f.kind === resource.kind && f.name === name && f.namespace === namespace,
      );
      return {
        kind: resource.kind,
        ...(namespace ? { namespace } : {}),
        name,
        findings: own,
        checks: Object.fromEntries(own.map((f) => [f.checkId, checkCatalogue.get(f.checkId)])),
      };
    },
  );
}
