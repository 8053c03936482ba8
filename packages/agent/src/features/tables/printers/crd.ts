import type { KubeObject, TableCell, TableColumn, TableColumnType } from '@binnacle/common';
import { arr, column, type Json, obj, str } from './format.ts';
import type { Printer } from './index.ts';
import { compileJsonPath, type JsonPath } from './jsonpath.ts';

/**
 * A custom resource's columns: the `additionalPrinterColumns` of the served version, or AGE when it has none,
 * as the API server's CRD table convertor (ADR 0053). A cell the path does not reach is empty, as kubectl
 * prints the server's null cells.
 */

/** A longer string cell (a large map or list printed as JSON) is cut here, with `...` as kubectl cuts lines. */
export const maxCellLength = 1024;

const columnTypes: Record<string, TableColumnType> = { integer: 'integer', number: 'number', date: 'date' };

/** Go's `%v` of a float64: shortest digits, exponent form outside [1e-4, 1e6) — `1e+06`, `2.5e-05`. */
export function goFloat(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : value < 0 ? '-Inf' : 'NaN';
  if (value === 0) return '0';
  const [mantissa = '', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const digits = Math.abs(exponent) < 10 ? `0${Math.abs(exponent)}` : String(Math.abs(exponent));
    return `${mantissa}e${exponent < 0 ? '-' : '+'}${digits}`;
  }
  return String(value);
}

/** Go's `json.Marshal` of decoded JSON: keys sorted, `<`, `>`, `&` and line separators escaped. */
function goJson(value: unknown): string {
  const sorted = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(sorted);
    if (typeof node !== 'object' || node === null) return node;
    const record = node as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, sorted(record[key])]),
    );
  };
  return JSON.stringify(sorted(value)).replace(/[<>&\u2028\u2029]/g, (char) => {
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

const bounded = (text: string) => (text.length > maxCellLength ? `${text.slice(0, maxCellLength)}...` : text);

/**
 * A JSON number as Go prints it once decoded: whole numbers decode to int64 and print as digits, others to
 * float64 (`%v`). The server prints string columns; kubectl prints the numbers of the Table it decoded.
 */
const goNumber = (value: number) => (Number.isInteger(value) ? String(value) : goFloat(value));

/** A value printed as the column printer's text: strings as they are, numbers and booleans as Go prints them. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return bounded(value);
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (value === null) return '';
  return bounded(goJson(value));
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A value in a typed column; a value of another type is the server's null cell, printed empty. */
export function typedCell(type: string, value: unknown): TableCell {
  switch (type) {
    case 'string':
      return textOf(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : '';
    case 'number': {
      if (typeof value !== 'number') return '';
      const text = goNumber(value);
      return text === String(value) ? value : text;
    }
    case 'boolean':
      return typeof value === 'boolean' ? String(value) : '';
    case 'date':
      if (typeof value !== 'string') return '';
      if (value === '' || value === 'null') return '<unknown>';
      return rfc3339.test(value) && !Number.isNaN(Date.parse(value)) ? { at: value } : '<invalid>';
    default:
      return '';
  }
}

interface CompiledColumn {
  column: TableColumn;
  type: string;
  path: JsonPath | undefined;
}

const defaultColumns: Json[] = [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }];

/** The printer of one CRD's served `version`, its paths compiled once. */
export function crdPrinter(crd: KubeObject, version: string): Printer {
  const served = arr(obj(crd.spec).versions).find((entry) => entry.name === version);
  const declared = arr(served?.additionalPrinterColumns);
  const definitions = declared.length > 0 ? declared : defaultColumns;
  const compiled: CompiledColumn[] = definitions.map((definition) => {
    const type = str(definition.type);
    const description = str(definition.description);
    return {
      column: column(
        str(definition.name).toUpperCase(),
        columnTypes[type] ?? 'string',
        definition.priority === 0 || definition.priority === undefined ? 0 : 1,
        description || `custom resource definition column (in JSONPath format): ${str(definition.jsonPath)}`,
      ),
      type,
      path: compileJsonPath(str(definition.jsonPath)),
    };
  });
  return {
    columns: compiled.map((entry) => entry.column),
    print: (object) => ({
      cells: compiled.map(({ type, path }) => {
        const found = path?.first(object);
        return found === undefined || found.value === null ? '' : typedCell(type, found.value);
      }),
    }),
  };
}
