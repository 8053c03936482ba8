import type { KubeObject, TableColumn } from '@binnacle/common';
import { AppError, badRequest } from '@binnacle/common/server';
import { type ApiResource, apiVersionOf, resourceKey } from '../../kube/discovery.ts';
import { type ListResult, listLimit, listResources } from '../../kube/object-reads.ts';
import { parseLabelSelector } from '../../kube/selectors.ts';
import type { Usage } from '../../scope/metrics/usage.ts';
import { withHealthColumns } from './health-columns.ts';
import type { TablesContext } from './module.ts';
import { type Printer, printerFor } from './printers/index.ts';
import { type IndexedRow, printedRow } from './rows.ts';
import {
  type ExtraColumn,
  type SortedRows,
  sortRows,
  type TableWindow,
  type WindowQuery,
  windowOf,
} from './window.ts';

export const tableLimits = {
  limit: { default: 100, max: 1000 },
  /** A kind the agent does not cache is listed live, page by page, up to this many objects. */
  liveObjects: 50_000,
  /** Sorted results kept for repeated windows of the same query (scrolling, streams). */
  memoEntries: 32,
  /** Objects printed ahead per turn of the event loop once a kind syncs (a few milliseconds of work). */
  printAheadSlice: 1000,
};

export interface TableQuery extends WindowQuery {
  kind: string;
  group?: string;
  /** Undefined: every namespace; empty: none (the caller may list the kind nowhere). */
  namespaces?: string[];
  labelSelector?: string;
  /** A past moment (ms): the table of the objects as they were then (time travel); not kept in the memo. */
  at?: number;
}

export interface TableAnswer extends TableWindow {
  kind: string;
  group: string;
  apiVersion: string;
  namespaced: boolean;
  source: ListResult['source'];
}

/** kubectl top's units: whole millicores and mebibytes. */
const cpuText = (usage: Usage | undefined) => (usage ? `${Math.round(usage.cpuMillicores)}m` : null);
const memoryText = (usage: Usage | undefined) =>
  usage ? `${Math.round(usage.memoryBytes / 2 ** 20)}Mi` : null;

const usageColumns = (usageOf: (row: IndexedRow) => Usage | undefined): ExtraColumn[] => [
  {
    column: { name: 'CPU', type: 'quantity', priority: 0, description: 'CPU in use (metrics-server)' },
    cell: (row) => cpuText(usageOf(row)),
    key: (row) => usageOf(row)?.cpuMillicores ?? null,
  },
  {
    column: { name: 'MEMORY', type: 'quantity', priority: 0, description: 'memory in use (metrics-server)' },
    cell: (row) => memoryText(usageOf(row)),
    key: (row) => usageOf(row)?.memoryBytes ?? null,
  },
];

/**
 * Resource tables: a kind's objects printed as kubectl prints them, filtered, sorted and cut to the window a
 * client shows. Printed rows are kept per object version; the sorted rows of a query are kept until the kind
 * (or, for pods and nodes, the metrics) change, so scrolling and streams do not sort 50 000 rows again.
 */
export class TableService {
  readonly #ctx: TablesContext;
  /** Per kind: a number that moves whenever one of its objects changes. */
  readonly #generations = new Map<string, number>();
  #counter = 0;
  readonly #printers = new Map<string, { crd?: KubeObject; printer: Printer }>();
  readonly #memo = new Map<string, { generation: string; sorted: SortedRows }>();
  readonly #listeners = new Set<(key: string, namespace?: string) => void>();
  readonly #unbind: () => void;

  constructor(ctx: TablesContext) {
    this.#ctx = ctx;
    this.#unbind = ctx.connection.bind((scope) => {
      // Another cluster: nothing kept from the last one applies.
      this.#generations.clear();
      this.#memo.clear();
      this.#printers.clear();
      const changed = (resource: ApiResource, namespace?: string) => {
        const key = resourceKey(resource);
        this.#generations.set(key, ++this.#counter);
        for (const listener of this.#listeners) listener(key, namespace);
      };
      const stopped = new AbortController();
      const offEvent = scope.cluster.cache.onEvent((event) =>
        changed(event.resource, event.object.metadata?.namespace),
      );
      const offSync = scope.cluster.cache.onSynced((resource, objects) => {
        changed(resource);
        this.#printAhead(resource, objects, stopped.signal);
      });
      return () => {
        stopped.abort();
        offEvent();
        offSync();
      };
    });
  }

  /**
   * Calls back with a kind's key (`plural.group`) whenever one of its cached objects changes, with the object's
   * namespace when one object did (none: any of them may have, as when the kind synced).
   */
  onChange(listener: (key: string, namespace?: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#unbind();
    this.#listeners.clear();
  }

  /** How many polls the metrics history has taken: pods' and nodes' CPU and MEMORY move with it. */
  get metricsPolls(): number {
    return this.#ctx.metrics.poller.history.polls;
  }

  #printer(resource: ApiResource): Printer {
    const key = resourceKey(resource);
    const crdResource = this.#ctx.cluster.find('apiextensions.k8s.io', 'CustomResourceDefinition');
    const crd =
      resource.group && crdResource
        ? this.#ctx.cluster.cache.informer(crdResource)?.get(`${resource.plural}.${resource.group}`)
        : undefined;
    const known = this.#printers.get(key);
    if (known && known.crd === crd) return known.printer;
    // A custom resource's table adds its health (and its project's fields) after the CRD's columns (ADR 0126).
    const printer = crd
      ? withHealthColumns(printerFor(resource, crd), resource.group, resource.kind)
      : printerFor(resource, crd);
    this.#printers.set(key, { crd, printer });
    return printer;
  }

  /**
   * Prints a kind's rows as soon as it syncs, a slice per turn of the event
   * loop: the first table asked of it then sorts rows already printed, where printing 50 000 pods on the
   * request took half a second (ADR 0060). Later versions of an object are printed when a table asks for them.
   */
  #printAhead(resource: ApiResource, objects: readonly KubeObject[], stopped: AbortSignal): void {
    const printer = this.#printer(resource);
    let next = 0;
    const slice = () => {
      if (stopped.aborted) return;
      const end = Math.min(objects.length, next + tableLimits.printAheadSlice);
      for (; next < end; next += 1) printedRow(printer, objects[next] as KubeObject);
      if (next < objects.length) setImmediate(slice);
    };
    setImmediate(slice);
  }

  /** CPU and MEMORY for pods and nodes, once the poller has samples of that side. */
  #extraColumns(resource: ApiResource): ExtraColumn[] {
    if (resource.group !== '') return [];
    const history = this.#ctx.metrics.poller.history;
    if (resource.plural === 'pods' && history.size.pods > 0)
      return usageColumns(({ row }) => history.latestPod(row.namespace ?? '', row.name));
    if (resource.plural === 'nodes' && history.size.nodes > 0)
      return usageColumns(({ row }) => history.latestNode(row.name));
    return [];
  }

  async #objects(resource: ApiResource, query: TableQuery): Promise<KubeObject[]> {
    const namespaces = resource.namespaced ? query.namespaces : undefined;
    if (query.at !== undefined || this.#ctx.cluster.cache.caches(resource)) {
      const cache = this.#ctx.cluster.cache;
      const items =
        query.at !== undefined
          ? this.#ctx.history.listAt(resource, query.at, namespaces)
          : namespaces
            ? namespaces.flatMap((ns) => cache.list(resource, ns))
            : cache.list(resource);
      if (!query.labelSelector) return items;
      const matches = parseLabelSelector(query.labelSelector);
      return items.filter((item) => matches(item.metadata?.labels));
    }
    // Not cached: listed live, every page, so the total is exact; a kind too big for that says so.
    const items: KubeObject[] = [];
    let next: string | undefined;
    do {
      const page = await listResources(this.#ctx.cluster, {
        kind: query.kind,
        group: query.group,
        namespaces,
        labelSelector: query.labelSelector,
        limit: listLimit.max,
        continue: next,
      });
      items.push(...page.items);
      next = page.continue;
      if (items.length > tableLimits.liveObjects)
        throw badRequest(
          `${resource.plural} has over ${tableLimits.liveObjects} objects and the agent does not cache it: narrow the table with namespace or labelSelector`,
        );
    } while (next);
    return items;
  }

  /** The sorted rows of a query, from the memo while the kind (and its metrics) did not change. */
  async #sorted(
    resource: ApiResource,
    query: TableQuery,
    columns: readonly TableColumn[],
    printer: Printer,
    extra: ExtraColumn[],
  ): Promise<SortedRows> {
    const cached = query.at === undefined && this.#ctx.cluster.cache.caches(resource);
    const key = JSON.stringify([
      resourceKey(resource),
      query.namespaces,
      query.labelSelector,
      query.filter,
      query.status,
      query.sort,
      query.order,
    ]);
    const generation = `${this.#generations.get(resourceKey(resource)) ?? 0}:${extra.length > 0 ? this.metricsPolls : ''}:${columns.length}`;
    const hit = cached ? this.#memo.get(key) : undefined;
    if (hit && hit.generation === generation) {
      // Most recently used last: the oldest entry is the one dropped.
      this.#memo.delete(key);
      this.#memo.set(key, hit);
      return hit.sorted;
    }
    const objects = await this.#objects(resource, query);
    const rows = objects.map((object) => printedRow(printer, object));
    const sorted = sortRows(rows, columns, extra, query, resource.namespaced);
    if (cached) {
      this.#memo.delete(key);
      this.#memo.set(key, { generation, sorted });
      if (this.#memo.size > tableLimits.memoEntries)
        this.#memo.delete(this.#memo.keys().next().value as string);
    }
    return sorted;
  }

  /** One window of a kind's table for namespaces the caller may list (see `namespacesToList`). */
  async window(query: TableQuery): Promise<TableAnswer> {
    const resource = this.#ctx.cluster.resolve(query.kind, query.group);
    if (!resource.verbs.includes('list'))
      throw new AppError(
        'unknown_kind',
        `${resource.plural} cannot be listed: the route takes kinds that can`,
      );
    const printer = this.#printer(resource);
    // Usage is the latest poll's: a past table has none to show.
    const extra = query.at === undefined ? this.#extraColumns(resource) : [];
    const sorted = await this.#sorted(resource, query, printer.columns, printer, extra);
    return {
      kind: resource.kind,
      group: resource.group,
      apiVersion: apiVersionOf(resource),
      namespaced: resource.namespaced,
      source:
        query.at !== undefined ? 'history' : this.#ctx.cluster.cache.caches(resource) ? 'cache' : 'live',
      ...windowOf(sorted, printer.columns, extra, query.offset, query.limit),
    };
  }
}
