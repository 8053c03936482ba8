import { AppError } from '@binnacle/common/server';
import type { Impersonation, KubeClient } from './client.ts';

export interface AccessAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  /** One object by name (rules with resourceNames grant only those). */
  name?: string;
}

const cacheMs = 5_000;
const maxEntries = 10_000;

/**
 * "May this caller do this?" as the API server's authorizer answers it: a SubjectAccessReview (created with
 * the agent's own identity) for a caller, a SelfSubjectAccessReview for the agent itself. Answers are cached
 * a few seconds per caller and question — a question already being asked is not asked again — so a removed
 * binding takes effect within 5 s. A review that cannot be made (API server unreachable, timing out, failing,
 * refusing the agent) is neither a grant nor a denial: it rejects with 503 `access_review_unavailable`, which
 * the error handler logs, and is not cached, so the next request asks again. Access still fails closed.
 */
export class AccessReviewer {
  readonly #client: KubeClient;
  readonly #answers = new Map<string, { allowed: Promise<boolean>; at: number }>();

  constructor(client: KubeClient) {
    this.#client = client;
  }

  allowed(caller: Impersonation | undefined, attributes: AccessAttributes): Promise<boolean> {
    const key = JSON.stringify([caller?.user, caller?.groups, attributes]);
    const cached = this.#answers.get(key);
    if (cached && Date.now() - cached.at < cacheMs) return cached.allowed;
    if (this.#answers.size >= maxEntries) this.#answers.clear();
    const allowed = this.#ask(caller, attributes);
    const entry = { allowed, at: Date.now() };
    this.#answers.set(key, entry);
    allowed.catch(() => {
      if (this.#answers.get(key) === entry) this.#answers.delete(key);
    });
    return allowed;
  }

  async #ask(caller: Impersonation | undefined, attributes: AccessAttributes): Promise<boolean> {
    const kind = caller ? 'SubjectAccessReview' : 'SelfSubjectAccessReview';
    try {
      const review = await this.#client.request<{ status?: { allowed?: boolean } }>({
        method: 'POST',
        path: `/apis/authorization.k8s.io/v1/${kind.toLowerCase()}s`,
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind,
          spec: caller
            ? { user: caller.user, groups: caller.groups, resourceAttributes: attributes }
            : { resourceAttributes: attributes },
        },
      });
      return review?.status?.allowed === true;
    } catch (error) {
      const cause = error instanceof AppError ? error.code : 'error';
      throw new AppError(
        'access_review_unavailable',
        `access could not be checked: the ${kind} failed (${cause}); access is refused until the Kubernetes API server answers it, retry shortly`,
        {
          cause: error,
          detail: {
            review: kind,
            attributes,
            cause: (error as Error).message,
            kube: (error as AppError).detail,
          },
        },
      );
    }
  }
}
