import { describe, expect, it } from 'vitest';
import { mapSelectorMatcher, parseLabelSelector, selectorMatcher, selectorQuery } from './selectors.ts';

const labels = { app: 'web', tier: 'frontend', env: 'prod', 'app.kubernetes.io/name': 'shop' };

describe('parseLabelSelector', () => {
  it.each([
    ['app=web', true],
    ['app==web', true],
    ['app=db', false],
    ['app!=db', true],
    ['tier!=frontend', false],
    ['env in (prod, staging)', true],
    ['env notin (prod)', false],
    ['env', true],
    ['!canary', true],
    ['!env', false],
    ['app=web,env in (prod,staging),!canary', true],
    ['app.kubernetes.io/name=shop', true],
    ['', true],
  ])('%j → %s', (selector, expected) => {
    expect(parseLabelSelector(selector)(labels)).toBe(expected);
  });

  it('names an invalid requirement', () => {
    expect(() => parseLabelSelector('app=web,=x')).toThrow('invalid requirement "=x"');
  });
});

describe('selector objects', () => {
  it('matches matchLabels and matchExpressions together', () => {
    const m = selectorMatcher({
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }],
    });
    expect(m(labels)).toBe(true);
    expect(m({ app: 'web', env: 'dev' })).toBe(false);
  });

  it('an empty LabelSelector matches everything, a missing one nothing', () => {
    expect(selectorMatcher({})(labels)).toBe(true);
    expect(selectorMatcher(undefined)(labels)).toBe(false);
  });

  it('an empty Service selector matches nothing', () => {
    expect(mapSelectorMatcher({})(labels)).toBe(false);
    expect(mapSelectorMatcher({ app: 'web' })(labels)).toBe(true);
  });
});

describe('selectorQuery', () => {
  it('writes a selector object in the query form, which parses back to the same matcher', () => {
    const selector = {
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'staging'] },
        { key: 'tier', operator: 'NotIn', values: ['db'] },
        { key: 'release', operator: 'Exists' },
        { key: 'canary', operator: 'DoesNotExist' },
      ],
    };
    const query = selectorQuery(selector);
    expect(query).toBe('app=web,env in (prod,staging),tier notin (db),release,!canary');
    const parsed = parseLabelSelector(query);
    const direct = selectorMatcher(selector);
    const cases: Record<string, string>[] = [
      { app: 'web', env: 'prod', release: 'a' },
      { app: 'web', env: 'dev', release: 'a' },
      { app: 'web', env: 'prod', release: 'a', canary: 'y' },
      { app: 'web', env: 'prod', tier: 'db', release: 'a' },
    ];
    for (const labels of cases) {
      expect(parsed(labels)).toBe(direct(labels));
    }
  });

  it('refuses an unknown operator', () => {
    expect(() => selectorQuery({ matchExpressions: [{ key: 'a', operator: 'Gt' }] })).toThrow('"Gt"');
  });
});
