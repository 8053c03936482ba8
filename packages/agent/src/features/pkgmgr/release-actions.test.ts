import { AppError } from '@binnacle/common/server';
import { describe, expect, it } from 'vitest';
import { newestFirst } from './chart-sources.ts';
import { parseValues, progressOf } from './release-actions.ts';

describe('parseValues', () => {
  it('takes a map as an object or as YAML text; empty text is no values', () => {
    expect(parseValues({ a: 1 })).toEqual({ a: 1 });
    expect(parseValues('replicaCount: 3\nimage:\n  tag: "2"\n')).toEqual({
      replicaCount: 3,
      image: { tag: '2' },
    });
    expect(parseValues('')).toEqual({});
    expect(parseValues('# only a comment\n')).toEqual({});
    expect(parseValues(undefined)).toBeUndefined();
  });

  it.each([
    ['replicaCount: [1', /^values: /],
    ['- a\n- b\n', /must be a YAML map/],
    ['just words', /must be a YAML map/],
  ])('refuses %j with 400 invalid_yaml', (text, message) => {
    let error: unknown;
    try {
      parseValues(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('invalid_yaml');
    expect((error as AppError).message).toMatch(message);
  });
});

describe('progressOf', () => {
  it('takes the message of a slog line and names its phase', () => {
    expect(progressOf('level=DEBUG msg="waiting for resources" count=3 timeout=5m0s')).toEqual({
      phase: 'waiting',
      message: 'waiting for resources',
      detail: 'count=3 timeout=5m0s',
    });
    expect(progressOf('level=DEBUG msg=fetching url=http://127.0.0.1/index.yaml')).toEqual({
      phase: 'fetching',
      message: 'fetching',
      detail: 'url=http://127.0.0.1/index.yaml',
    });
    expect(progressOf('level=DEBUG msg="creating resource(s)" resources=3')?.phase).toBe('applying');
    expect(progressOf('level=DEBUG msg="running pre-install hooks"')?.phase).toBe('hooks');
    expect(progressOf('plain text from helm')).toEqual({ phase: 'running', message: 'plain text from helm' });
    expect(
      progressOf(`level=DEBUG msg="unmarshalled JSON schema" schema="${'x'.repeat(1000)}"`)?.detail,
    ).toHaveLength(300);
  });

  it('never passes on an HTTP dump, which can carry a registry credential', () => {
    expect(
      progressOf('level=DEBUG msg=GET id=0 url=http://r/v2/ header="Authorization: Bearer secret"'),
    ).toBeUndefined();
  });
});

describe('newestFirst', () => {
  it('orders by semver, pre-releases below their release, non-semver last', () => {
    const versions = ['1.2.0', 'latest', '1.10.0', '1.10.0-rc.1', '0.9.9'].map((version) => ({ version }));
    expect(versions.sort(newestFirst).map((v) => v.version)).toEqual([
      '1.10.0',
      '1.10.0-rc.1',
      '1.2.0',
      '0.9.9',
      'latest',
    ]);
  });
});
