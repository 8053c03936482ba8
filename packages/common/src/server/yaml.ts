import { type Document, isAlias, isMap, isPair, isScalar, isSeq, type Node, parseAllDocuments } from 'yaml';
import { AppError } from './errors.ts';
import { maxNestingDepth } from './nesting.ts';

/**
 * What one YAML text may become (ADR 0046). `expandedChars` is the size of its JSON form with every alias
 * written out, which is what JSON.stringify, helm's values file and the API server's request get: 99 aliases of a
 * 4.9 MB value made a 485 MB request of a 4.9 MB body. Both bounds sit far above any real manifest or values file.
 */
export interface YamlLimits {
  expandedChars: number;
  aliases: number;
  depth: number;
}

const mib = 1024 * 1024;

export const yamlLimits = {
  /** Manifests a caller applies (bodies up to 5 MiB). */
  manifests: { expandedChars: 20 * mib, aliases: 100, depth: maxNestingDepth },
  /** Helm values: a caller's, a chart's, a release's. Values files use anchors more than manifests do. */
  values: { expandedChars: 20 * mib, aliases: 1000, depth: maxNestingDepth },
  /** What the cluster or a chart holds: release manifests, chart files (5 MiB each), kubeconfigs, settings files. */
  stored: { expandedChars: 64 * mib, aliases: 1000, depth: maxNestingDepth },
  /** A chart repository's index.yaml (downloads up to 64 MiB). */
  index: { expandedChars: 128 * mib, aliases: 10_000, depth: maxNestingDepth },
} satisfies Record<string, YamlLimits>;

/** JSON's punctuation around a value (quotes, comma) and a pair (colon): close enough to bound, cheap to count. */
const overhead = 2;

/**
 * Checks one parsed document against the limits without converting it: a walk over its nodes in which an alias
 * costs what its anchor's node costs, each collection measured once (memoised with its size and height), so nested
 * alias bombs ("billion laughs") cost time linear in the text, and the walk never recurses deeper than
 * `limits.depth`.
 */
function checkDocument(doc: Document, limits: YamlLimits, name: string): void {
  let aliases = 0;
  const measured = new Map<Node, { size: number; height: number }>();
  const measuring = new Set<Node>();
  const tooDeep = () => new AppError('invalid_yaml', `${name}: nested deeper than ${limits.depth} levels`);
  /** The expanded size and the height of a node found `depth` levels down. */
  const measure = (node: unknown, depth: number): { size: number; height: number } => {
    if (depth > limits.depth) throw tooDeep();
    if (isAlias(node)) {
      aliases += 1;
      if (aliases > limits.aliases)
        throw new AppError('invalid_yaml', `${name}: more than ${limits.aliases} aliases`);
      const target = node.resolve(doc);
      if (!target)
        throw new AppError('invalid_yaml', `${name}: alias *${node.source} has no anchor before it`);
      return measure(target, depth);
    }
    if (!isMap(node) && !isSeq(node))
      return { size: (isScalar(node) ? String(node.value).length : 4) + overhead, height: 1 };
    const known = measured.get(node);
    if (known) {
      if (depth + known.height - 1 > limits.depth) throw tooDeep();
      return known;
    }
    if (measuring.has(node))
      throw new AppError('invalid_yaml', `${name}: an alias refers to a collection that contains it`);
    measuring.add(node);
    const result = { size: overhead, height: 1 };
    const add = (child: unknown) => {
      const part = measure(child, depth + 1);
      result.size += part.size;
      result.height = Math.max(result.height, part.height + 1);
    };
    for (const item of node.items as unknown[]) {
      if (isPair(item)) {
        add(item.key);
        add(item.value);
      } else add(item);
    }
    measuring.delete(node);
    measured.set(node, result);
    if (result.size > limits.expandedChars)
      throw new AppError(
        'payload_too_large',
        `${name}: expands to more than ${limits.expandedChars / mib} MiB through its aliases`,
      );
    return result;
  };
  measure(doc.contents, 1);
}

/**
 * Every document of a YAML stream, parsed and checked against `limits` before anything is converted: 400
 * `invalid_yaml` for a syntax error, too many aliases or too deep a nesting, 413 `payload_too_large` for an
 * expansion past the bound, each naming the document (`name(i)`). Callers that need another code (a chart
 * source's 502) catch the AppError and keep its message.
 */
export function checkedYamlDocuments(
  text: string,
  limits: YamlLimits,
  name: (index: number) => string = (index) => `document ${index + 1}`,
): Document.Parsed[] {
  const docs: Document.Parsed[] = parseAllDocuments(text);
  docs.forEach((doc, index) => {
    const error = doc.errors[0];
    // The parser recurses into flow collections; past some hundreds of levels it reports the stack's end.
    if (error?.message.startsWith('Maximum call stack size exceeded'))
      throw new AppError('invalid_yaml', `${name(index)}: nested deeper than ${limits.depth} levels`);
    if (error)
      throw new AppError(
        'invalid_yaml',
        `${name(index)}: ${error.message.split('\n')[0]?.replace(/:$/, '')}`,
      );
    checkDocument(doc, limits, name(index));
  });
  return docs;
}

/** Every document of a YAML stream as plain values, checked as {@link checkedYamlDocuments} says. */
export function parseYamlDocuments(
  text: string,
  limits: YamlLimits,
  name?: (index: number) => string,
): unknown[] {
  // Aliases become shared references here, not copies; the expansion was bounded by the check.
  return checkedYamlDocuments(text, limits, name).map((doc) => doc.toJS({ maxAliasCount: -1 }) as unknown);
}

/** One YAML document as a plain value (null when the text holds none); more than one is `invalid_yaml`. */
export function parseYaml(text: string, limits: YamlLimits, name: string): unknown {
  const docs = parseYamlDocuments(text, limits, () => name);
  if (docs.length > 1) throw new AppError('invalid_yaml', `${name}: holds ${docs.length} documents, not one`);
  return docs[0] ?? null;
}
