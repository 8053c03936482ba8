import { describe, expect, expectTypeOf, it } from 'vitest';
import { presetQuery, presets } from '../../features/timeline/service.ts';
import { defaultExcludedNames, type ExcludedNamePattern } from './noise.ts';
import type { TimelineQuery } from './types.ts';

describe('excluded name patterns', () => {
  it('are our constants only, so the stores may run them on RegExp', () => {
    expectTypeOf<TimelineQuery['excludeNames']>().toEqualTypeOf<readonly ExcludedNamePattern[] | undefined>();
    for (const preset of presets)
      for (const pattern of presetQuery(preset, ['Secret']).excludeNames ?? [])
        expect(defaultExcludedNames).toContain(pattern);
  });
});
