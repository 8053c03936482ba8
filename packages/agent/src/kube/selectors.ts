import { badRequest } from '@binnacle/common/server';

export type Labels = Record<string, string> | undefined;
export type LabelMatcher = (labels: Labels) => boolean;

/** A Kubernetes LabelSelector object (Deployments, Services use the matchLabels part only). */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

const unknownOperator = (operator: string) =>
  badRequest(`label selector operator "${operator}" is not one of In, NotIn, Exists, DoesNotExist`);

function requirement(key: string, operator: string, values: string[]): LabelMatcher {
  switch (operator) {
    case 'In':
      return (labels) => labels?.[key] !== undefined && values.includes(labels[key] as string);
    case 'NotIn':
      return (labels) => labels?.[key] === undefined || !values.includes(labels[key] as string);
    case 'Exists':
      return (labels) => labels?.[key] !== undefined;
    case 'DoesNotExist':
      return (labels) => labels?.[key] === undefined;
    default:
      throw unknownOperator(operator);
  }
}

const all =
  (matchers: LabelMatcher[]): LabelMatcher =>
  (labels) =>
    matchers.every((m) => m(labels));

/** Matches a LabelSelector object; an empty selector matches everything, a missing one nothing. */
export function selectorMatcher(selector: LabelSelector | undefined | null): LabelMatcher {
  if (!selector) return () => false;
  const matchers: LabelMatcher[] = Object.entries(selector.matchLabels ?? {}).map(([key, value]) =>
    requirement(key, 'In', [value]),
  );
  for (const expr of selector.matchExpressions ?? [])
    matchers.push(requirement(expr.key, expr.operator, expr.values ?? []));
  return all(matchers);
}

const queryOperators: Record<string, (key: string, values: string[]) => string> = {
  In: (key, values) => `${key} in (${values.join(',')})`,
  NotIn: (key, values) => `${key} notin (${values.join(',')})`,
  Exists: (key) => key,
  DoesNotExist: (key) => `!${key}`,
};

/** A LabelSelector object in the query form the API server takes (`labelSelector=`), for live lists. */
export function selectorQuery(selector: LabelSelector): string {
  const parts = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => `${key}=${value}`);
  for (const expr of selector.matchExpressions ?? []) {
    const format = queryOperators[expr.operator];
    if (!format) throw unknownOperator(expr.operator);
    parts.push(format(expr.key, expr.values ?? []));
  }
  return parts.join(',');
}

/** A Service-style selector (a plain map); an empty map matches nothing, as Services do. */
export function mapSelectorMatcher(selector: Record<string, string> | undefined): LabelMatcher {
  if (!selector || Object.keys(selector).length === 0) return () => false;
  return selectorMatcher({ matchLabels: selector });
}

/**
 * Parses the query form of a label selector, as kubectl writes it:
 * `app=web,tier!=db,env in (prod,staging),env notin (dev),release,!canary`.
 */
export function parseLabelSelector(text: string): LabelMatcher {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  const matchers = parts
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const set = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part);
      if (set) {
        const values = (set[3] ?? '')
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean);
        return requirement(set[1] as string, set[2] === 'in' ? 'In' : 'NotIn', values);
      }
      const neq = /^([\w./-]+)\s*!=\s*([\w.-]*)$/.exec(part);
      if (neq) return requirement(neq[1] as string, 'NotIn', [neq[2] as string]);
      const eq = /^([\w./-]+)\s*==?\s*([\w.-]*)$/.exec(part);
      if (eq) return requirement(eq[1] as string, 'In', [eq[2] as string]);
      const not = /^!([\w./-]+)$/.exec(part);
      if (not) return requirement(not[1] as string, 'DoesNotExist', []);
      if (/^[\w./-]+$/.test(part)) return requirement(part, 'Exists', []);
      throw badRequest(`query parameter "labelSelector" has an invalid requirement "${part}"`);
    });
  return all(matchers);
}
