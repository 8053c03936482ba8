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
 * "May this caller do this?" as the API server's authorizer answers it (SubjectAccessReview, created with the
 * agent's own identity). Answers are cached a few seconds per caller and question, so a removed binding takes
 * effect within 5 s. Any failure to ask is a refusal: access fails closed.
 */
export class AccessReviewer {
  readonly #client: KubeClient;
  readonly #answers = new Map<string, { allowed: boolean; at: number }>();

  constructor(client: KubeClient) {
    this.#client = client;
  }

  async allowed(caller: Impersonation, attributes: AccessAttributes): Promise<boolean> {
    const key = JSON.stringify([caller.user, caller.groups, attributes]);
    const cached = this.#answers.get(key);
    if (cached && Date.now() - cached.at < cacheMs) return cached.allowed;
    let allowed = false;
    try {
      const review = await this.#client.request<{ status?: { allowed?: boolean } }>({
        method: 'POST',
        path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec: { user: caller.user, groups: caller.groups, resourceAttributes: attributes },
        },
      });
      allowed = review?.status?.allowed === true;
    } catch {
      allowed = false;
    }
    if (this.#answers.size >= maxEntries) this.#answers.clear();
    this.#answers.set(key, { allowed, at: Date.now() });
    return allowed;
  }
}
