import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { namespacesToList, visibleNamespaces } from '../../http/caller-view.ts';
import { requestedNamespaces } from '../../http/query.ts';
import { NamespaceParam } from '../../http/schemas.ts';
import type { Impersonation } from '../../kube/client.ts';
import { resourceKey } from '../../kube/discovery.ts';
import { certificateReport } from '../../scope/certificates/report.ts';
import { CertificateReport } from '../../scope/certificates/schemas.ts';
import type { CertificatesContext } from './module.ts';

/**
 * The caller's TLS Secrets from the cache (403 for a named namespace it may not list them in; the cache's own 403
 * or 503 when the agent cannot list them or still loads them), and cert-manager's Certificates when the cluster
 * serves them and the agent can read them (undefined otherwise; named in `loading` while they load), in the
 * namespaces the caller may list them in.
 */
async function readable(
  ctx: CertificatesContext,
  caller: Impersonation | undefined,
  requested: string[] | undefined,
) {
  const secrets = ctx.cluster.resolve('secrets');
  const secretNamespaces = await namespacesToList(ctx, caller, secrets, requested);
  const tls = (secretNamespaces ?? [undefined]).flatMap((ns) => ctx.cluster.cache.list(secrets, ns));
  const loading: string[] = [];
  const certificates = ctx.cluster.find('cert-manager.io', 'Certificate');
  const informer = certificates ? ctx.cluster.cache.informer(certificates) : undefined;
  if (!certificates || !informer?.synced) {
    if (certificates && informer?.state !== 'forbidden') loading.push(resourceKey(certificates));
    return { tls, certificates: undefined, loading };
  }
  // The Secrets decide the 403; Certificates join where the caller may list them too. The built-in admin and
  // edit roles do not cover cert-manager's kinds unless its chart's aggregated roles are installed.
  const namespaces = await visibleNamespaces(
    ctx,
    caller,
    { group: certificates.group, resource: certificates.plural },
    requested,
  );
  return { tls, certificates: (namespaces ?? [undefined]).flatMap((ns) => informer.list(ns)), loading };
}

export function certificateRoutes(app: App, ctx: CertificatesContext): void {
  app.get(
    '/api/secrets/certificate-expiry',
    {
      config: callerAware,
      schema: {
        tags: ['certificates'],
        summary:
          'Every kubernetes.io/tls Secret (and cert-manager Certificate) the caller may list, with its certificates, chain, days left and severity; unreadable data is a finding, never an error',
        querystring: Query({
          namespace: Type.Optional(NamespaceParam),
          namespaces: Type.Optional(Type.String({ minLength: 1, description: 'comma-separated namespaces' })),
        }),
        response: { 200: CertificateReport, ...errorResponses },
      },
    },
    async (request) => {
      const { tls, certificates, loading } = await readable(
        ctx,
        request.caller,
        requestedNamespaces(request.query),
      );
      return { ...certificateReport(tls, certificates, Date.now()), loading };
    },
  );
}
