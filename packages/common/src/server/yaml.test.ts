import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { checkedYamlDocuments, parseYaml, parseYamlDocuments, yamlLimits } from './yaml.ts';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('not refused');
};

/** Ten levels of ten aliases each of the one before: 10^10 "lol"s once written out. */
const billionLaughs = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghij'
    .split('')
    .map((name, i) => `${name}: &${name} [${Array(10).fill(`*${'abcdefghij'[i]}`).join(',')}]`),
].join('\n');

describe('parseYamlDocuments', () => {
  it('reads a manifest with a few aliases as plain values', () => {
    const text = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: shared}',
      '---',
      'apiVersion: v1',
      'kind: Service',
      'metadata: {name: shop, labels: &labels {app: shop, tier: web}}',
      'spec: {selector: *labels, ports: [{port: 80, name: &http http, targetPort: *http}]}',
    ].join('\n');
    const [config, service] = parseYamlDocuments(text, yamlLimits.manifests) as {
      metadata?: unknown;
      spec?: unknown;
    }[];
    expect(config?.metadata).toEqual({ name: 'shared' });
    expect(service?.spec).toEqual({
      selector: { app: 'shop', tier: 'web' },
      ports: [{ port: 80, name: 'http', targetPort: 'http' }],
    });
  });

  it('refuses a billion laughs in linear time, before converting anything', () => {
    const start = performance.now();
    expect(refusal(() => parseYamlDocuments(billionLaughs, yamlLimits.index))).toEqual({
      code: 'payload_too_large',
      message: 'document 1: expands to more than 128 MiB through its aliases',
    });
    expect(performance.now() - start).toBeLessThan(1_000);
  });

  it('refuses 99 aliases of a 4.9 MB value with 413 naming the document', () => {
    const big = 'x'.repeat(4_900_000);
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\ndata:\n  k0: &v ${big}\n${Array.from(
      { length: 99 },
      (_, i) => `  k${i + 1}: *v`,
    ).join('\n')}\n`;
    expect(refusal(() => parseYamlDocuments(`kind: Namespace\n---\n${text}`, yamlLimits.manifests))).toEqual({
      code: 'payload_too_large',
      message: 'document 2: expands to more than 20 MiB through its aliases',
    });
  });

  it('counts aliases against the bound even when they are small', () => {
    const text = `base: &b 1\nlist: [${Array(101).fill('*b').join(', ')}]\n`;
    expect(refusal(() => parseYamlDocuments(text, yamlLimits.manifests))).toEqual({
      code: 'invalid_yaml',
      message: 'document 1: more than 100 aliases',
    });
    expect(parseYamlDocuments(text, yamlLimits.values)).toHaveLength(1);
  });

  it('refuses nesting past the bound, also when an alias puts a deep collection deeper', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    expect(parseYamlDocuments(`a: ${nested(198)}`, yamlLimits.manifests)).toHaveLength(1);
    const tooDeep = { code: 'invalid_yaml', message: 'document 1: nested deeper than 200 levels' };
    expect(refusal(() => parseYamlDocuments(`a: ${nested(200)}`, yamlLimits.manifests))).toEqual(tooDeep);
    expect(refusal(() => parseYamlDocuments(nested(5_000), yamlLimits.manifests))).toEqual(tooDeep);
    const viaAlias = `a: &deep ${nested(150)}\nb: ${'['.repeat(100)}*deep${']'.repeat(100)}`;
    expect(refusal(() => parseYamlDocuments(viaAlias, yamlLimits.manifests))).toEqual(tooDeep);
  });

  it('names the document of a syntax error, and takes an empty stream as no documents', () => {
    expect(refusal(() => parseYamlDocuments('a: 1\n---\nb: [1,\n', yamlLimits.manifests))).toMatchObject({
      code: 'invalid_yaml',
      message: expect.stringMatching(/^document 2: /),
    });
    expect(parseYamlDocuments('', yamlLimits.manifests)).toEqual([]);
    expect(checkedYamlDocuments('# only a comment\n', yamlLimits.manifests)).toHaveLength(0);
  });

  it('refuses an alias whose anchor is in another document or nowhere', () => {
    expect(refusal(() => parseYamlDocuments('a: &x 1\n---\nb: *x\n', yamlLimits.manifests))).toEqual({
      code: 'invalid_yaml',
      message: 'document 2: alias *x has no anchor before it',
    });
  });
});

describe('parseYaml', () => {
  it('takes one document, named in errors as the caller says', () => {
    expect(parseYaml('replicas: 2', yamlLimits.values, 'values')).toEqual({ replicas: 2 });
    expect(parseYaml('', yamlLimits.values, 'values')).toBeNull();
    expect(refusal(() => parseYaml('a: 1\n---\nb: 2\n', yamlLimits.values, 'values'))).toEqual({
      code: 'invalid_yaml',
      message: 'values: holds 2 documents, not one',
    });
  });

  it('refuses the Helm values bomb of issue 37 (1 000 aliases of 900 bytes)', () => {
    const text = `v: &v ${'y'.repeat(900)}\nlist:\n${Array(1000).fill('  - *v').join('\n')}\n`;
    expect(parseYaml(text, yamlLimits.values, 'values')).toMatchObject({ v: 'y'.repeat(900) });
    const bomb = `v: &v ${'y'.repeat(906_000)}\nlist:\n${Array(1000).fill('  - *v').join('\n')}\n`;
    expect(refusal(() => parseYaml(bomb, yamlLimits.values, 'values'))).toEqual({
      code: 'payload_too_large',
      message: 'values: expands to more than 20 MiB through its aliases',
    });
  });
});
