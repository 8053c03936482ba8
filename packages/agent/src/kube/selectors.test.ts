import { describe, expect, it } from 'vitest';
import { mapSelectorMatcher, parseLabelSelector, selectorMatcher } from './selectors.ts';

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
