import type { Impersonation, KubeClient } from './client.ts';

export interface AccessAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
}

const cacheMs = 5_000;
const maxEntries = 10_000;

/**
 * "May this caller do this?" as the API server's authorizer answers it: a SubjectAccessReview (created with
 * the agent's own identity) for a caller, a SelfSubjectAccessReview for the agent itself. Answers are cached
 * a few seconds per caller and question — a question already being asked is not asked again — so a removed
 * binding takes effect within 5 s. Any failure to ask is a refusal: access fails closed.
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
    this.#answers.set(key, { allowed, at: Date.now() });
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
    } catch {
      return false;
    }
  }
}
