import { describe, expect, it } from 'vitest';
import { defaultColumns, type FieldFilter, fieldKeys, lineMatches, parseFieldFilter } from './filter.ts';
import { type LogLevel, parseStructured, type StructuredLine } from './structured.ts';

const at = (text: string, pod = 'web-1') => ({
  structured: parseStructured(text),
  pod,
  container: 'app',
});

const filterOf = (text: string): FieldFilter => {
  const parsed = parseFieldFilter(text);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.filter;
};

const none = new Set<LogLevel>();

describe('parseFieldFilter', () => {
  it('reads key=value terms, quoted values and repeated keys', () => {
    expect([...filterOf('level=error service="billing api" level=warn')]).toEqual([
      ['level', ['error', 'warn']],
      ['service', ['billing api']],
    ]);
    expect(filterOf('  ').size).toBe(0);
  });

  it('says what is wrong with a term without a value or a broken quote', () => {
    expect(parseFieldFilter('level=error billing')).toEqual({
      error: '“billing” has no value: write key=value, e.g. level=error.',
    });
    expect(parseFieldFilter('msg="open')).toEqual({
      error: 'Write key=value terms, quoting values with spaces: msg="a b".',
    });
    expect(parseFieldFilter('a=1 '.repeat(200))).toEqual({ error: 'At most 512 characters.' });
  });
});

describe('lineMatches', () => {
  it('matches level terms by meaning, whichever key and spelling the line uses', () => {
    const filter = filterOf('level=error');
    expect(lineMatches(at('{"severity":"ERR","msg":"x"}'), none, filter)).toBe(true);
    expect(lineMatches(at('{"level":50,"msg":"x"}'), none, filter)).toBe(true);
    expect(lineMatches(at('lvl=error msg=x'), none, filter)).toBe(true);
    expect(lineMatches(at('level=info msg=x'), none, filter)).toBe(false);
    expect(lineMatches(at('a plain line'), none, filter)).toBe(false);
  });

  it('matches other fields case-insensitively, pod and container by origin, all terms together', () => {
    const line = at('level=info service=Billing msg=ok', 'api-7');
    expect(lineMatches(line, none, filterOf('service=billing'))).toBe(true);
    expect(lineMatches(line, none, filterOf('service=billing pod=api-7'))).toBe(true);
    expect(lineMatches(line, none, filterOf('service=billing pod=api-8'))).toBe(false);
    expect(lineMatches(line, none, filterOf('container=app'))).toBe(true);
    expect(lineMatches(at('not structured', 'api-7'), none, filterOf('pod=api-7'))).toBe(true);
    expect(lineMatches(line, none, filterOf('region=eu'))).toBe(false);
  });

  it('keeps every line with no filter, and only lines of the chosen levels with a level choice', () => {
    expect(lineMatches(at('a plain line'), none, new Map())).toBe(true);
    const chosen = new Set<LogLevel>(['warn', 'error']);
    expect(lineMatches(at('level=warning msg=x'), chosen, new Map())).toBe(true);
    expect(lineMatches(at('level=debug msg=x'), chosen, new Map())).toBe(false);
    expect(lineMatches(at('a plain line'), chosen, new Map())).toBe(false);
  });
});

describe('fieldKeys and defaultColumns', () => {
  it('counts keys apart from level, message and time, and offers the common ones', () => {
    const lines = [
      '{"time":"t","level":"info","msg":"a","service":"billing","order":"1"}',
      'ts=1 level=info msg=b service=billing',
      'ts=2 level=info msg=c service=billing',
      'level=info msg=c service=billing',
      'level=info msg=c service=billing',
      'level=info msg=c rare=1 service=billing',
    ].map((text) => parseStructured(text) as StructuredLine);
    const keys = fieldKeys(lines);
    expect(keys).toEqual([
      { key: 'service', count: 6 },
      { key: 'order', count: 1 },
      { key: 'rare', count: 1 },
    ]);
    expect(defaultColumns(keys, lines.length)).toEqual(['service']);
  });
});
