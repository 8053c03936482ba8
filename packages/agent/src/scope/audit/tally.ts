import type { KubeObject } from '@binnacle/common';
import type { ObjectFinding } from './engine.ts';
import { type FindingCounts, objectKey } from './report.ts';

/** A danger finding with the object it was found on (a problem's age is the object's). */
export interface Danger {
  finding: ObjectFinding;
  object: KubeObject;
}

/** One kind in one namespace: objects without a finding, findings by severity, the dangers by name and check. */
interface KindTally {
  passing: number;
  warning: number;
  danger: number;
  dangers: Danger[];
}

/** A namespace's tally per kind, valid while the namespace's epoch is `epoch`. */
export interface NamespaceTally {
  epoch: number;
  kinds: Map<string, KindTally>;
  /** Findings per object with any, keyed `kind/namespace/name` (objectKey). */
  objects: Map<string, FindingCounts>;
  /** Findings of the whole namespace, every kind. */
  total: FindingCounts;
}

/** The audit's finding counts per object and per namespace, as the topology shows them on its nodes. */
export interface AuditCounts {
  ofObject(key: string): FindingCounts | undefined;
  ofNamespace(namespace: string): FindingCounts | undefined;
}

/** The audit's counts over a view, as `auditReport` counts them, with its danger findings in report order. */
export interface AuditSummary {
  passing: number;
  warning: number;
  danger: number;
  /** By kind, namespace, name and check. */
  dangers: Danger[];
  loading: string[];
}

const byNameAndCheck = (a: Danger, b: Danger) =>
  a.finding.name.localeCompare(b.finding.name) || a.finding.checkId.localeCompare(b.finding.checkId);

/** Tallies one namespace's objects from their judged findings (settings applied, disabled checks left out). */
export function tallyNamespace(
  epoch: number,
  objects: KubeObject[],
  findingsOf: (object: KubeObject) => ObjectFinding[],
): NamespaceTally {
  const kinds = new Map<string, KindTally>();
  const counted = new Map<string, FindingCounts>();
  const total: FindingCounts = { warning: 0, danger: 0 };
  for (const object of objects) {
    const kind = object.kind ?? '';
    let tally = kinds.get(kind);
    if (!tally) {
      tally = { passing: 0, warning: 0, danger: 0, dangers: [] };
      kinds.set(kind, tally);
    }
    const findings = findingsOf(object);
    if (findings.length === 0) {
      tally.passing += 1;
      continue;
    }
    const counts: FindingCounts = { warning: 0, danger: 0 };
    for (const finding of findings) {
      tally[finding.severity] += 1;
      counts[finding.severity] += 1;
      total[finding.severity] += 1;
      if (finding.severity === 'danger') tally.dangers.push({ finding, object });
    }
    counted.set(
      objectKey({ kind, namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' }),
      counts,
    );
  }
  for (const tally of kinds.values()) tally.dangers.sort(byNameAndCheck);
  return { epoch, kinds, objects: counted, total };
}

/** Adds up the tallies of the namespaces and kinds in view; the dangers come by kind, then namespace. */
export function sumTallies(
  tallies: Map<string, NamespaceTally>,
  namespaceInView: (namespace: string) => boolean,
  kindInView: (kind: string) => boolean,
): Omit<AuditSummary, 'loading'> {
  const sum = { passing: 0, warning: 0, danger: 0 };
  const parts: { kind: string; namespace: string; dangers: Danger[] }[] = [];
  for (const [namespace, { kinds }] of tallies) {
    if (!namespaceInView(namespace)) continue;
    for (const [kind, tally] of kinds) {
      if (!kindInView(kind)) continue;
      sum.passing += tally.passing;
      sum.warning += tally.warning;
      sum.danger += tally.danger;
      if (tally.dangers.length > 0) parts.push({ kind, namespace, dangers: tally.dangers });
    }
  }
  parts.sort((a, b) => a.kind.localeCompare(b.kind) || a.namespace.localeCompare(b.namespace));
  return { ...sum, dangers: parts.flatMap((p) => p.dangers) };
}
