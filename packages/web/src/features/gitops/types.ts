import type { Answer } from '../../api/client.ts';

/** The agent's GitOps views (`/api/gitops`, `/api/gitops-a/…`, `/api/gitops-b/…`), as docs/gitops.md describes them. */
export type Overview = Answer<'/api/gitops'>;
export type ApplicationSummary = Overview['applications'][number];
export type FluxSummary = Overview['flux'][number];
export type ApplicationDetail = Answer<'/api/gitops-a/applications/{namespace}/{name}'>;
export type FluxDetail = Answer<'/api/gitops-b/{kind}/{namespace}/{name}'>;
export type ManagedResource = ApplicationDetail['resources'][number];
export type Condition = ApplicationDetail['conditions'][number];

export const fluxKinds = [
  'GitRepository',
  'OCIRepository',
  'HelmRepository',
  'Bucket',
  'Kustomization',
  'HelmRelease',
] as const;

/** What an Application's operation is doing, in words: asked for, running, or how the last one ended. */
export function operationText(op: ApplicationSummary['operation']): string | undefined {
  if (op.running && !op.phase) return "Sync requested: waiting for Argo CD's application controller";
  if (!op.phase) return undefined;
  return op.message ? `${op.phase}: ${op.message}` : op.phase;
}

/** Whether something is in motion, so the page polls faster. */
export const inMotion = (o: ApplicationSummary | FluxSummary) =>
  'operation' in o ? o.operation.running || o.operation.phase === 'Running' : o.reconciling;

/**
 * A revision as Git and Flux show it short: commit ids to 7 characters, digests to 12 (`main@sha1:4f9c2e1`,
 * `sha256:9843841915…`); tags and chart versions as they are.
 */
export const shortRevision = (revision?: string) =>
  revision
    ? revision.replace(/\b(sha256:)?([0-9a-f]{40,64})\b/g, (_all, algorithm?: string, hex?: string) =>
        algorithm ? `${algorithm}${hex?.slice(0, 12)}` : (hex?.slice(0, 7) ?? ''),
      )
    : '—';
