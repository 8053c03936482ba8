import type { KubeObject } from '../kube-object.ts';
import { type DefaultContext, isDefaultValue } from './defaults.ts';

/**
 * Why a difference is folded away by default: `status` (what controllers observe), `defaulted` (one side holds
 * the API server's default where the other lacks the field), `server` (what the API server or a controller
 * generates for each object: identities, hashes, allocated addresses).
 */
export type FoldReason = 'status' | 'defaulted' | 'server';

export interface FieldDifference {
  /** `spec.template.spec.containers[name=app].image`: list elements by their key where lists have one. */
  path: string;
  /** Absent when the field is not set on that side. */
  left?: unknown;
  right?: unknown;
  folded?: FoldReason;
}

export interface Comparison {
  /** No difference at all, folded ones included. */
  identical: boolean;
  differences: FieldDifference[];
  /** Differences shown unfolded, and folded by reason. */
  counts: { shown: number } & Record<FoldReason, number>;
  /** Fields holding the same value on both sides. */
  equal: number;
}

type Leaves = Map<string, unknown>;

/** Never compared: they restate the object (field ownership, the last applied copy of it) or name it. */
const skipped = new Set([
  'metadata.managedFields',
  'metadata.name',
  'metadata.namespace',
  'metadata.selfLink',
  'metadata.annotations.kubectl.kubernetes.io/last-applied-configuration',
]);

/** Set by the API server or a controller for each object; they differ between any two objects. */
const serverSet = [
  /^metadata\.(uid|resourceVersion|creationTimestamp|generation|deletionTimestamp|deletionGracePeriodSeconds)$/,
  /^metadata\.ownerReferences\[[^\]]*\]\.uid$/,
  /^metadata\.annotations\.deployment\.kubernetes\.io\/revision$/,
  /(^|\.)labels\.(pod-template-hash|controller-revision-hash|controller-uid|batch\.kubernetes\.io\/controller-uid|batch\.kubernetes\.io\/job-name|job-name|statefulset\.kubernetes\.io\/pod-name|apps\.kubernetes\.io\/pod-index)$/,
  /(^|\.)matchLabels\.(batch\.kubernetes\.io\/controller-uid|controller-uid)$/,
  /^spec\.(clusterIP|clusterIPs)$/,
  /^spec\.ports\[[^\]]*\]\.nodePort$/,
  /^spec\.healthCheckNodePort$/,
  /^spec\.(nodeName|volumeName)$/,
  /^spec\.(init)?[cC]ontainers\[[^\]]*\]\.volumeMounts\[name=kube-api-access-[a-z0-9]+\]/,
  /^spec\.volumes\[name=kube-api-access-[a-z0-9]+\]/,
  /^spec\.tolerations\[key=node\.kubernetes\.io\/(not-ready|unreachable)\]/,
];

/** The field that names an element in the lists Kubernetes merges by key; other lists go by position. */
const listKeys = ['name', 'type', 'containerPort', 'port', 'mountPath', 'key', 'ip', 'devicePath'];

function keyOf(items: unknown[]): string | undefined {
  if (items.length === 0 || !items.every((item) => item && typeof item === 'object' && !Array.isArray(item)))
    return undefined;
  return listKeys.find((key) => {
    const values = items.map((item) => (item as Record<string, unknown>)[key]);
    return (
      values.every((value) => typeof value === 'string' || typeof value === 'number') &&
      new Set(values).size === values.length
    );
  });
}

/** Bounds the walk: a field this deep or this wide is compared as one value. */
const maxDepth = 24;

function flatten(value: unknown, path: string, leaves: Leaves, depth: number): void {
  if (skipped.has(path)) return;
  if (depth >= maxDepth || value === null || typeof value !== 'object') {
    leaves.set(path, value);
    return;
  }
  if (Array.isArray(value)) {
    const key = keyOf(value);
    if (value.length === 0 || (!key && value.every((item) => typeof item !== 'object' || item === null))) {
      leaves.set(path, value);
      return;
    }
    value.forEach((item, index) => {
      if (!key) {
        flatten(item, `${path}[${index}]`, leaves, depth + 1);
        return;
      }
      // The key is in the path already; an element that is nothing but its key is a leaf of its own.
      const { [key]: id, ...rest } = item as Record<string, unknown>;
      const itemPath = `${path}[${key}=${id}]`;
      if (Object.keys(rest).length === 0) leaves.set(itemPath, item);
      else flatten(rest, itemPath, leaves, depth + 1);
    });
    return;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) {
    leaves.set(path, value);
    return;
  }
  for (const [field, inner] of entries) flatten(inner, path ? `${path}.${field}` : field, leaves, depth + 1);
}

function leavesOf(object: KubeObject): Leaves {
  const leaves: Leaves = new Map();
  flatten(object, '', leaves, 0);
  return leaves;
}

/** Secret values never leave the comparison: only whether they differ, and their size. */
const secretValue = (kind: string, path: string) => kind === 'Secret' && /^(data|stringData)\./.test(path);
const masked = (value: unknown) =>
  value === undefined ? undefined : `(secret value, ${String(value).length} characters)`;

const siblingPath = (path: string, name: string) => path.replace(/[^.]+$/, name);
const contextOf = (leaves: Leaves): DefaultContext => ({
  sibling: (path, name) => leaves.get(siblingPath(path, name)),
});

/**
 * Whether the list element holding `path` (its nearest `[…]`) exists in `leaves`: a default inside an element only
 * one side has is part of that element, and the element is a real difference.
 */
function elementExists(path: string, leaves: Leaves): boolean {
  const end = path.lastIndexOf(']');
  if (end < 0) return true;
  const element = path.slice(0, end + 1);
  for (const leaf of leaves.keys()) if (leaf === element || leaf.startsWith(`${element}.`)) return true;
  return false;
}

function foldOf(
  kind: string,
  path: string,
  value: unknown,
  sides: { own: Leaves; other: Leaves },
  missingOnOther: boolean,
): FoldReason | undefined {
  if (path === 'status' || path.startsWith('status.')) return 'status';
  if (serverSet.some((pattern) => pattern.test(path))) return 'server';
  if (
    missingOnOther &&
    isDefaultValue(kind, path, value, contextOf(sides.own)) &&
    elementExists(path, sides.other)
  )
    return 'defaulted';
  return undefined;
}

/**
 * The field-by-field differences between two objects of a kind (the same or different clusters, or one object at
 * two moments), with what hides the real ones folded: status, server-generated fields, and defaults one side
 * lacks. Secret values are never returned, only whether they differ.
 */
export function compareObjects(left: KubeObject, right: KubeObject): Comparison {
  const kind = left.kind ?? right.kind ?? '';
  const a = leavesOf(left);
  const b = leavesOf(right);
  const differences: FieldDifference[] = [];
  let equal = 0;
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const one = a.get(path);
    const other = b.get(path);
    if (JSON.stringify(one) === JSON.stringify(other)) {
      equal += 1;
      continue;
    }
    // A default counts only against a missing field: set on both sides, a value is someone's choice.
    const folded =
      one === undefined
        ? foldOf(kind, path, other, { own: b, other: a }, true)
        : foldOf(kind, path, one, { own: a, other: b }, other === undefined);
    const secret = secretValue(kind, path);
    differences.push({
      path,
      ...(one === undefined ? {} : { left: secret ? masked(one) : one }),
      ...(other === undefined ? {} : { right: secret ? masked(other) : other }),
      ...(folded ? { folded } : {}),
    });
  }
  differences.sort((x, y) => sectionRank(x.path) - sectionRank(y.path) || x.path.localeCompare(y.path));
  const counts = { shown: 0, status: 0, defaulted: 0, server: 0 };
  for (const difference of differences) counts[difference.folded ?? 'shown'] += 1;
  return { identical: differences.length === 0, differences, counts, equal };
}

/** Metadata first, then the spec and the rest, status last: the order of a manifest. */
function sectionRank(path: string): number {
  if (path.startsWith('metadata')) return 0;
  if (path.startsWith('status')) return 2;
  return 1;
}

/** One side as read: the object, and where and when it was read from. */
export interface ComparedSide {
  object: KubeObject;
  cluster?: { id: string; name: string };
  /** The moment it was read as of (time travel), ISO 8601. */
  at?: string;
}

const sideOf = ({ object, cluster, at }: ComparedSide) => ({
  ...(cluster ? { cluster } : {}),
  ...(object.metadata?.namespace ? { namespace: object.metadata.namespace } : {}),
  name: object.metadata?.name ?? '',
  ...(object.metadata?.resourceVersion ? { resourceVersion: object.metadata.resourceVersion } : {}),
  ...(at ? { at } : {}),
});

/** The answer of the compare routes (agent and hub alike): what was compared, and how it differs. */
export function comparisonOf(left: ComparedSide, right: ComparedSide) {
  return {
    kind: left.object.kind ?? right.object.kind ?? '',
    apiVersion: left.object.apiVersion ?? right.object.apiVersion ?? '',
    left: sideOf(left),
    right: sideOf(right),
    ...compareObjects(left.object, right.object),
  };
}

/** A compared side as a query names it, `<namespace>/<name>` (`_` for cluster-scoped), as its parts. */
export function splitObjectRef(ref: string): { namespace: string; name: string } {
  const slash = ref.indexOf('/');
  return { namespace: ref.slice(0, slash), name: ref.slice(slash + 1) };
}
