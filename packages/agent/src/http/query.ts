import { parseTimeOrDuration } from '@binnacle/common';
import { badRequest, TimeOrDuration } from '@binnacle/common/server';

/** A comma-separated query value as a list (blanks dropped); undefined when absent. */
export const csv = (value: string | undefined) =>
  value
    ?.split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** The namespace filter every view takes: `?namespaces=a,b` (preferred) or `?namespace=a`; undefined: all. */
export const requestedNamespaces = (query: { namespaces?: string; namespace?: string }) =>
  csv(query.namespaces) ?? (query.namespace ? [query.namespace] : undefined);

/**
 * A moment asked for by `?at=` (or `from`, `to`): an RFC 3339 time, or a duration back from now (`90m`), as
 * milliseconds; undefined when absent.
 */
export function requestedMoment(
  value: string | undefined,
  parameter: string,
  now = Date.now(),
): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parseTimeOrDuration(value, `query parameter "${parameter}"`, now);
  } catch (error) {
    throw badRequest((error as Error).message);
  }
}

/** The `at=` parameter of the routes that can answer as of a past moment (time travel, ADR 0114). */
export const AtParam = TimeOrDuration({
  maxLength: 64,
  description:
    'a past moment, RFC 3339 or a duration back from now (90m): the answer as the cluster was then; outside the kept window 410 outside_history with `oldest` and `newest`',
});
