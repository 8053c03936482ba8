import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError } from '@binnacle/common/server';

/**
 * Work that may only read the cluster (the read-only MCP endpoint, ADR 0115): every request the agent's Kubernetes
 * client sends while it runs — awaited calls included, through AsyncLocalStorage — must be a read, whatever the
 * tool and whatever the caller's RBAC would allow.
 */
const reading = new AsyncLocalStorage<true>();

export function onlyReading<T>(work: () => T): T {
  return reading.run(true, work);
}

/**
 * Reviews are created (POST) but change nothing: the reads that ask what a caller may do, or who it is.
 * Everything else but GET (and an apply's dry run, below) writes or opens a session (exec, attach, port-forward: WebSocket upgrades).
 */
const reviewPath =
  /^\/apis\/(authorization\.k8s\.io\/v1\/(namespaces\/[^/]+\/)?(self|local)?subject(access|rules)reviews|authentication\.k8s\.io\/v1\/selfsubjectreviews)$/;

/**
 * A server-side-apply dry run writes nothing either (the selection impact asks one, docs/adr/0124): the API server
 * calls only admission webhooks without side effects on a dry run. Only the apply patch type is let through, which
 * no server older than dry runs accepts, so none could take it for a real write.
 */
const applyDryRun = (method: string, request: { query?: Record<string, unknown>; contentType?: string }) =>
  method === 'PATCH' &&
  request.query?.dryRun === 'All' &&
  request.contentType === 'application/apply-patch+yaml';

/** Refuses a request that is not a read while only reading is allowed. */
export function refuseWritesWhileReading(
  method: string,
  path: string,
  request: { query?: Record<string, unknown>; contentType?: string } = {},
): void {
  if (reading.getStore() !== true) return;
  if (method === 'GET' || (method === 'POST' && reviewPath.test(path)) || applyDryRun(method, request))
    return;
  throw new AppError(
    'forbidden',
    `this endpoint only reads the cluster: ${method} ${path} was not sent (use /mcp, with the caller's rights, to change it)`,
  );
}
