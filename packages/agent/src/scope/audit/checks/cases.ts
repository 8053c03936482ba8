/** The checks' test tables: each check has manifests that it must flag exactly so, and manifests it must pass. */
import type { KubeObject } from '@binnacle/common';
import type { AuditContextOptions } from './context.ts';
import type { Severity } from './types.ts';

/** A finding a case expects: severity, a part of the message, the container when there is one. */
export type Expected = [Severity, string] | [Severity, string, string];

export interface Case {
  check: string;
  name: string;
  object: KubeObject;
  /** The other objects of the snapshot the context is built from. */
  cluster?: KubeObject[];
  options?: Partial<AuditContextOptions>;
  /** Exactly the findings expected, in order; empty for a manifest that passes. */
  expect: Expected[];
}

/** Positive cases expect findings, negative ones none; the catalogue test wants both for every check. */
export const isPositive = (c: Case) => c.expect.length > 0;

type Extra = Pick<Case, 'cluster' | 'options'>;
/** A manifest the check flags with exactly this finding. */
export type Flags = (name: string, object: KubeObject, expected: Expected, extra?: Extra) => Case;
/** A manifest the check passes. */
export type Passes = (name: string, object: KubeObject, extra?: Extra) => Case;

/** One check's cases, written with `flags` and `passes`; `shared` is every case's context unless it has its own. */
export function check(
  id: string,
  write: (flags: Flags, passes: Passes) => Case[],
  shared: Extra = {},
): Case[] {
  return write(
    (name, object, expected, extra) => ({ check: id, name, object, expect: [expected], ...shared, ...extra }),
    (name, object, extra) => ({ check: id, name, object, expect: [], ...shared, ...extra }),
  );
}
