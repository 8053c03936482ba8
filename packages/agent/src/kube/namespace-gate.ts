import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { AccessReviewer } from './access-review.ts';
import type { KubeClient } from './client.ts';
import { type ApiResource, resourceKey } from './discovery.ts';
import type { Informer } from './informer.ts';
import type { NamespaceSetInformer } from './namespace-set-informer.ts';

/**
 * What an agent watching namespaces asks before a kind's first LIST (ADR 0121): an access review per namespace
 * (a namespaced kind) or across the cluster (a cluster-scoped one), so no LIST is sent to be refused and none
 * leaves the namespaces. Namespaces themselves are never listed: the watched ones are read by name.
 */
export class NamespaceGate {
  readonly #client: KubeClient;
  readonly #access: AccessReviewer;
  readonly #namespaces: readonly string[];

  constructor(client: KubeClient, access: AccessReviewer, namespaces: readonly string[]) {
    this.#client = client;
    this.#access = access;
    this.#namespaces = namespaces;
  }

  get namespaces(): readonly string[] {
    return this.#namespaces;
  }

  /** Starts a namespaced kind in the namespaces where the agent may list it; refused in none, refused. */
  async startNamespaced(informer: NamespaceSetInformer): Promise<void> {
    const { resource } = informer;
    const allowed = await Promise.all(
      this.#namespaces.map((namespace) => this.#mayList(resource, namespace)),
    );
    informer.startIn(
      new Set(this.#namespaces.filter((_, index) => allowed[index])),
      this.#refusal(resource, 'in any of them'),
    );
  }

  /** Starts a cluster-scoped kind if the agent may list it across the cluster; Namespaces are seeded by name. */
  async startClusterScoped(informer: Informer): Promise<void> {
    const { resource } = informer;
    if (resourceKey(resource) === 'namespaces') {
      informer.seed(await Promise.all(this.#namespaces.map((name) => this.#namespaceObject(name))));
      return;
    }
    if (await this.#mayList(resource)) informer.start();
    else informer.refuse(this.#refusal(resource, 'across the cluster'));
  }

  /** Whether the agent's identity may list a kind (in a namespace); a review that fails counts as no. */
  #mayList(resource: ApiResource, namespace?: string): Promise<boolean> {
    return this.#access
      .allowed(undefined, { verb: 'list', group: resource.group, resource: resource.plural, namespace })
      .catch(() => false);
  }

  #refusal(resource: ApiResource, where: string): AppError {
    return new AppError(
      'forbidden',
      `the agent watches namespaces ${this.#namespaces.join(', ')} and may not list ${resource.plural} ${where}`,
    );
  }

  /** A watched namespace as the API server has it (a binding in it may grant reading it), else by its name. */
  #namespaceObject(name: string): Promise<KubeObject> {
    const path = `/api/v1/namespaces/${encodeURIComponent(name)}`;
    return this.#client.request<KubeObject>({ path }).catch(() => ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
      status: { phase: 'Active' },
    }));
  }
}
