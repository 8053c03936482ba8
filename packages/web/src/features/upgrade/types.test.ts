import { describe, expect, it } from 'vitest';
import { releaseParam, statusWord, targetChoices } from './types.ts';

describe('the upgrade readiness page', () => {
  it('offers the next four minors, with an older target asked for kept in order', () => {
    expect(targetChoices('1.36', '1.37')).toEqual(['1.37', '1.38', '1.39', '1.40']);
    expect(targetChoices('1.36', '1.33')).toEqual(['1.33', '1.37', '1.38', '1.39', '1.40']);
  });

  it('takes only a 1.N release from the URL and words each status', () => {
    expect(releaseParam('1.33')).toBe('1.33');
    expect(releaseParam('2.0')).toBeUndefined();
    expect(releaseParam(1.33)).toBe('1.33');
    expect(releaseParam('1.x')).toBeUndefined();
    expect(statusWord('removed-in-target', '1.37')).toBe('removed in 1.37');
  });
});
