import { cellText, type KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { crdPrinter, goFloat, maxCellLength, typedCell } from './crd.ts';
import { compileJsonPath, maxJsonPathLength } from './jsonpath.ts';

const object = {
  metadata: {
    name: 'x',
    creationTimestamp: '2026-01-01T11:00:00Z',
    labels: { 'app.kubernetes.io/name': 'web' },
  },
  spec: { replicas: 3, ratio: 0.25, big: 2500000, suspend: false, tags: ['a', 'b'], 'a.b': { c: 'dotted' } },
  status: {
    conditions: [
      { type: 'Reconciling', status: 'False', reason: 'Done' },
      { type: 'Ready', status: 'True', reason: 'Succeeded', lastTransitionTime: '2026-01-01T11:30:00Z' },
    ],
    nodes: [{ name: 'n1' }, { name: 'n2' }],
    map: { z: 1, a: '<x>' },
  },
};

const first = (path: string) => compileJsonPath(path)?.first(object)?.value;

describe('column JSONPath', () => {
  it.each<[string, unknown]>([
    ['.spec.replicas', 3],
    ['.metadata.labels.app\\.kubernetes\\.io/name', 'web'],
    [".metadata.labels['app\\.kubernetes\\.io/name']", 'web'],
    ['.status.nodes[0:2].name', 'n1'],
    ['.status.nodes[1:].name', 'n2'],
    ['.status.nodes[::1].name', 'n1'],
    ['.spec.a\\.b.c', 'dotted'],
    ['.status.nodes[0].name', 'n1'],
    ['.status.nodes[-1].name', 'n2'],
    ['.status.nodes[*].name', 'n1'],
    ['.spec.tags[*]', 'a'],
    ['.status.conditions[?(@.type=="Ready")].status', 'True'],
    [".status.conditions[?(@.type == 'Ready')].reason", 'Succeeded'],
    ['.status.conditions[?(@.type!="Ready")].reason', 'Done'],
    ['.status.conditions[?(@.lastTransitionTime)].type', 'Ready'],
    ['$.spec.replicas', 3],
  ])('%s', (path, expected) => {
    expect(first(path)).toEqual(expected);
  });

  it.each([
    '.spec.missing',
    '.status.nodes[5].name',
    '.spec.replicas.deeper',
    '.status.conditions[?(@.type=="Gone")].status',
    ".metadata.labels['app.kubernetes.io/name']",
    '.status.nodes[-3].name',
    '.status.nodes[1:1].name',
    '.status.nodes[*].name.deeper',
    '.metadata[*]',
  ])('%s reaches nothing', (path) => {
    expect(compileJsonPath(path)).toBeDefined();
    expect(first(path)).toBeUndefined();
  });

  it.each([
    '..name',
    '.a[0,1]',
    '.a[',
    'spec',
    '.a["x"]',
    '.a[x]',
    '.a[?(@.x =~ /y/)]',
    '.'.repeat(maxJsonPathLength + 1),
  ])('%s does not compile', (path) => {
    expect(compileJsonPath(path)).toBeUndefined();
  });

  it('walks a wide and deep object in one pass without throwing', () => {
    const wide = { items: Array.from({ length: 20_000 }, (_, i) => ({ spec: { list: [{ v: i }] } })) };
    const path = compileJsonPath('.items[*].spec.list[*].missing');
    expect(path?.first(wide)).toBeUndefined();
    const filter = compileJsonPath('.items[?(@.spec.list[0].v == 19999)].spec.list[0].v');
    expect(filter?.first(wide)?.value).toBe(19_999);
  });
});

describe('typed cells', () => {
  it.each<[string, unknown, string]>([
    ['integer', 3, '3'],
    ['integer', 2.9, '2'],
    ['integer', 'three', ''],
    ['number', 0.25, '0.25'],
    ['number', 2500000, '2500000'],
    ['number', 1234567.5, '1.2345675e+06'],
    ['number', 1, '1'],
    ['boolean', false, 'false'],
    ['boolean', 'yes', ''],
    ['string', 'text', 'text'],
    ['string', 7, '7'],
    ['string', 0.5, '0.5'],
    ['string', true, 'true'],
    ['string', ['a', 'b'], '["a","b"]'],
    ['string', { z: 1, a: '<x>' }, '{"a":"\\u003cx\\u003e","z":1}'],
    ['date', 'not a date', '<invalid>'],
    ['date', '', '<unknown>'],
    ['date', 5, ''],
    ['date', '2026-01-01T11:00:00Z', '60m'],
  ])('%s of %j is %s', (type, value, text) => {
    expect(cellText(typedCell(type, value), Date.parse('2026-01-01T12:00:00Z'))).toBe(text);
  });

  it('formats floats as Go does', () => {
    expect([goFloat(1e6), goFloat(123456), goFloat(0.0001), goFloat(0.00001234), goFloat(-1.5e21)]).toEqual([
      '1e+06',
      '123456',
      '0.0001',
      '1.234e-05',
      '-1.5e+21',
    ]);
  });

  it('cuts a huge JSON value', () => {
    const text = typedCell('string', { list: 'x'.repeat(maxCellLength * 2) });
    expect(typeof text === 'string' && text.length).toBe(maxCellLength + 3);
  });
});

const crd = (columns: unknown[] | undefined): KubeObject => ({
  spec: {
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        additionalPrinterColumns: [{ name: 'Old', type: 'string', jsonPath: '.x' }],
      },
      { name: 'v1', served: true, ...(columns ? { additionalPrinterColumns: columns } : {}) },
    ],
  },
});

describe('a CRD printer', () => {
  it('prints the served version’s columns, upper-cased, with priorities and types', () => {
    const printer = crdPrinter(
      crd([
        { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
        { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
        { name: 'Since', type: 'date', jsonPath: '.status.conditions[1].lastTransitionTime' },
        { name: 'Tags', type: 'string', jsonPath: '.spec.tags', priority: 1 },
        { name: 'Broken', type: 'string', jsonPath: '..name' },
        { name: 'Missing', type: 'integer', jsonPath: '.spec.nothing' },
      ]),
      'v1',
    );
    expect(printer.columns.map((column) => [column.name, column.type, column.priority])).toEqual([
      ['READY', 'string', 0],
      ['REPLICAS', 'integer', 0],
      ['SINCE', 'date', 0],
      ['TAGS', 'string', 1],
      ['BROKEN', 'string', 0],
      ['MISSING', 'integer', 0],
    ]);
    const row = printer.print(object as KubeObject);
    expect(row.cells.map((cell) => cellText(cell, Date.parse('2026-01-01T12:00:00Z')))).toEqual([
      'True',
      '3',
      '30m',
      '["a","b"]',
      '',
      '',
    ]);
  });

  it('prints AGE when the version declares no columns', () => {
    const printer = crdPrinter(crd(undefined), 'v1');
    expect(printer.columns.map((column) => column.name)).toEqual(['AGE']);
    expect(printer.print(object as KubeObject).cells).toEqual([{ at: '2026-01-01T11:00:00Z' }]);
  });
});
