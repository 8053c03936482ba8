/**
 * The JSONPath subset CRD printer columns use, compiled once per column and evaluated like the API server's
 * column printer (client-go's jsonpath): missing keys are no result, and only the first result is printed
 * (ADR 0053). Supported: `.a.b`, `.a\.b` (escaped dot), `['a']` (which, as in client-go, is `.a`: dots in it
 * still separate fields), `[0]`, `[-1]`, `[1:3]`, `[::2]`, `[*]`, `.*`, and filters `[?(@.a.b == "x")]` with
 * `==`, `!=`, `<`, `<=`, `>`, `>=` against a string, number or boolean, or `[?(@.a)]` for presence.
 * Anything else (recursive descent, unions) does not compile, and the column prints empty.
 */

type Operator = '==' | '!=' | '<' | '<=' | '>' | '>=';
type Literal = string | number | boolean;

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'slice'; start?: number; end?: number; endDerived?: boolean; step?: number }
  | { kind: 'all' }
  | { kind: 'filter'; path: Step[]; operator?: Operator; literal?: Literal };

export interface JsonPath {
  /** The first value the path reaches in `root`, or undefined when it reaches none. */
  first(root: unknown): { value: unknown } | undefined;
}

/** Longer paths are refused: a column path is a few fields, and this bounds compile and evaluation work. */
export const maxJsonPathLength = 512;

const terminators = new Set(['.', '[', ']', ' ', '\t', '\n', '$', '@', '{', '}', ',']);

/**
 * Where the bracket opened before `start` closes: the first `]`, except that a filter's quotes and
 * parentheses are skipped.
 */
function bracketEnd(source: string, start: number): number {
  if (!source.startsWith('?(', start)) return source.indexOf(']', start);
  let depth = 0;
  let quote = '';
  for (let i = start; i < source.length; i++) {
    const char = source[i];
    if (quote) {
      if (char === '\\') i++;
      else if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ']' && depth === 0) return i;
  }
  return -1;
}

function unquote(text: string): string | undefined {
  const quote = text[0];
  if (text.length < 2 || (quote !== '"' && quote !== "'") || text.at(-1) !== quote) return undefined;
  return text.slice(1, -1).replace(/\\(.)/g, '$1');
}

function literal(text: string): Literal | undefined {
  const quoted = unquote(text);
  if (quoted !== undefined) return quoted;
  if (text === 'true' || text === 'false') return text === 'true';
  return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text) ? Number(text) : undefined;
}

const filterPattern = /^\?\(\s*@(\S*?)\s*(?:(==|!=|<=|>=|<|>)\s*(.+?))?\s*\)$/;

const slicePattern = /^(-?\d*)(?::(-?\d*))?(?::(-?\d*))?$/;

function parseSlice(text: string): Step | undefined {
  const match = slicePattern.exec(text === '*' ? ':' : text);
  if (!match) return undefined;
  const [, start = '', end, step] = match;
  const slice: Step = { kind: 'slice' };
  if (start !== '') slice.start = Number(start);
  // `[n]` is the slice n to n+1, with the end counted before a negative start is.
  if (end === undefined) {
    slice.end = (slice.start ?? 0) + 1;
    slice.endDerived = true;
  } else if (end !== '') slice.end = Number(end);
  if (step !== undefined && step !== '') slice.step = Number(step);
  return slice;
}

function parseBracket(text: string): Step[] | undefined {
  const key = /^'([^']*)'$/.exec(text);
  if (key) return parseSteps(`.${key[1] ?? ''}`);
  const slice = parseSlice(text);
  if (slice) return [slice];
  const filter = filterPattern.exec(text.trim());
  if (!filter) return undefined;
  const path = parseSteps(filter[1] ?? '');
  if (!path) return undefined;
  if (filter[2] === undefined) return [{ kind: 'filter', path }];
  const value = literal(filter[3] ?? '');
  if (value === undefined) return undefined;
  return [{ kind: 'filter', path, operator: filter[2] as Operator, literal: value }];
}

function parseSteps(source: string): Step[] | undefined {
  const steps: Step[] = [];
  let i = source.startsWith('$') ? 1 : 0;
  while (i < source.length) {
    const char = source[i];
    if (char === '.') {
      if (source[i + 1] === '.') return undefined;
      let name = '';
      i++;
      while (i < source.length && !terminators.has(source[i] ?? '')) {
        if (source[i] === '\\' && i + 1 < source.length) i++;
        name += source[i];
        i++;
      }
      if (name === '*') steps.push({ kind: 'all' });
      else if (name !== '') steps.push({ kind: 'field', name });
    } else if (char === '[') {
      const end = bracketEnd(source, i + 1);
      if (end < 0) return undefined;
      const bracket = parseBracket(source.slice(i + 1, end));
      if (!bracket) return undefined;
      steps.push(...bracket);
      i = end + 1;
    } else return undefined;
  }
  return steps;
}

function compare(left: unknown, operator: Operator | undefined, right: Literal | undefined): boolean {
  if (operator === undefined) return true;
  if (operator === '==') return left === right;
  if (operator === '!=') return left !== right;
  if (typeof left !== 'number' || typeof right !== 'number') return false;
  if (operator === '<') return left < right;
  if (operator === '<=') return left <= right;
  if (operator === '>') return left > right;
  return left >= right;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Depth-first, stopping at the first result: each node is visited at most once per step. */
function firstFrom(node: unknown, steps: Step[], at: number): { value: unknown } | undefined {
  const step = steps[at];
  if (step === undefined) return { value: node };
  switch (step.kind) {
    case 'field':
      return isObject(node) && Object.hasOwn(node, step.name)
        ? firstFrom(node[step.name], steps, at + 1)
        : undefined;
    case 'slice': {
      if (!Array.isArray(node)) return undefined;
      const length = node.length;
      const start = (step.start ?? 0) < 0 ? (step.start ?? 0) + length : (step.start ?? 0);
      let end = step.end ?? length;
      if (end < 0 || (end === 0 && step.endDerived)) end += length;
      // Out of bounds is an error in client-go, which leaves the cell empty.
      if (start === end || start < 0 || start >= length || end < 0 || end > length || start > end)
        return undefined;
      const stride = step.step ?? 1;
      if (stride <= 0) return undefined;
      for (let i = start; i < end; i += stride) {
        const found = firstFrom(node[i], steps, at + 1);
        if (found) return found;
      }
      return undefined;
    }
    case 'all': {
      const children = Array.isArray(node)
        ? node
        : isObject(node)
          ? Object.keys(node)
              .sort()
              .map((key) => node[key])
          : [];
      for (const child of children) {
        const found = firstFrom(child, steps, at + 1);
        if (found) return found;
      }
      return undefined;
    }
    case 'filter': {
      if (!Array.isArray(node)) return undefined;
      for (const child of node) {
        const left = firstFrom(child, step.path, 0);
        if (left && compare(left.value, step.operator, step.literal)) {
          const found = firstFrom(child, steps, at + 1);
          if (found) return found;
        }
      }
      return undefined;
    }
  }
}

/** Compiles a column path (as written in a CRD, without braces); undefined when it is outside the subset. */
export function compileJsonPath(source: string): JsonPath | undefined {
  if (source.length > maxJsonPathLength) return undefined;
  const steps = parseSteps(source.trim());
  if (!steps) return undefined;
  return { first: (root) => firstFrom(root, steps, 0) };
}
