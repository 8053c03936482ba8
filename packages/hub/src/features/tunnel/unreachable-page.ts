import { sendError, toAppError } from '@binnacle/common/server';
import type { FastifyInstance } from 'fastify';
import { hubPage } from '../../http/hub-page.ts';

/**
 * What the hub itself answers at `/c/{cluster_id}/…` before any agent is asked: not signed in, no such cluster
 * in your organizations, its agent not connected, its tunnel gone mid-request. A person at a browser gets the
 * hub's page for the cluster instead, which says which and what to do (sign in; the cluster's state, when its
 * agent was last seen and how to reconnect it), with the same status (ADR 0070).
 */
const explainedOnAPage = new Set<string>([
  'unauthenticated',
  'session_ended',
  'not_found',
  'cluster_offline',
  'cluster_disconnected',
]);

/** A top-level page load: a browser asks for HTML; an API client, a script or an asset load does not. */
export const isPageLoad = (request: { method: string; headers: { accept?: string } }) =>
  request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');

/**
 * The error handler of the tunnel's routes (`scope`): their failures stay `{error, code}` for API clients, and
 * become the hub's page for a browser's page load. Errors of the access hook reach it too, as it is the route's.
 */
export function explainFailuresToBrowsers(scope: FastifyInstance): void {
  scope.setErrorHandler((error, request, reply) => {
    const failure = toAppError(error);
    if (!isPageLoad(request) || !explainedOnAPage.has(failure.code)) return sendError(error, request, reply);
    return hubPage(
      request,
      reply.code(failure.status).headers({ 'cache-control': 'no-store', ...failure.headers }),
    );
  });
}
