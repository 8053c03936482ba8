/**
 * The JSONPath subset CRD printer columns use, compiled once per column and evaluated like the API server's
 * column printer: missing keys are no result, and only the first result is printed (ADR 0053). Supported:
 * `.a.b`, `.a\.b` (escaped dot), `['a.b']`, `[0]`, `[-1]`, `[*]`, `.*`, and filters `[?(@.a.b == "x")]` with
 * `==`, `!=`, `<`, `<=`, `>`, `>=` against a string, number or boolean, or `[?(@.a)]` for presence.
 * Anything else (recursive descent, slices, unions) does not compile, and the column prints empty.
 */

type Operator = '==' | '!=' | '<' | '<=' | '>' | '>=';
type Literal = string | number | boolean;

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'all' }
  | { kind: 'filter'; path: Step[]; operator?: Operator; literal?: Literal };

export interface JsonPath {
  /** The first value the path reaches in `root`, or undefined when it reaches none. */
  first(root: unknown): { value: unknown } | undefined;
}

/** Longer paths are refused: a column path is a few fields, and this bounds compile and evaluation work. */
export const maxJsonPathLength = 512;

const terminators = new Set(['.', '[', ']', ' ', '\t', '\n', '$', '@', '{', '}', ',']);

/** The text of a bracket at `start` (just after `[`) up to its closing `]`, honouring quotes and parentheses. */
function bracketEnd(source: string, start: number): number {
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

function parseBracket(text: string): Step | undefined {
  const inner = text.trim();
  if (inner === '*') return { kind: 'all' };
  if (/^-?\d+$/.test(inner)) return { kind: 'index', index: Number(inner) };
  const key = unquote(inner);
  if (key !== undefined) return { kind: 'field', name: key };
  const filter = filterPattern.exec(inner);
  if (!filter) return undefined;
  const path = parseSteps(filter[1] ?? '');
  if (!path) return undefined;
  if (filter[2] === undefined) return { kind: 'filter', path };
  const value = literal(filter[3] ?? '');
  if (value === undefined) return undefined;
  return { kind: 'filter', path, operator: filter[2] as Operator, literal: value };
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
      const step = parseBracket(source.slice(i + 1, end));
      if (!step) return undefined;
      steps.push(step);
      i = end + 1;
    } else return undefined;
  }
  return steps;
}

function compare(left: unknown, operator: Operator | undefined, right: Literal | undefined): boolean {
  if (operator === undefined) return left !== null && left !== undefined && left !== false;
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
    case 'index': {
      if (!Array.isArray(node)) return undefined;
      const index = step.index < 0 ? node.length + step.index : step.index;
      return index >= 0 && index < node.length ? firstFrom(node[index], steps, at + 1) : undefined;
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
