import { describe, expect, it } from 'vitest';
import { retag, tagPattern } from './image-tag.ts';

describe('retag', () => {
  it.each([
    ['ghcr.io/binnacle/binnacle:0.1.0', 'ghcr.io/binnacle/binnacle:0.2.0'],
    ['mirror.internal:5000/team/binnacle:0.1.0', 'mirror.internal:5000/team/binnacle:0.2.0'],
    ['mirror.internal:5000/team/binnacle', 'mirror.internal:5000/team/binnacle:0.2.0'],
    ['binnacle', 'binnacle:0.2.0'],
    [`ghcr.io/binnacle/binnacle:0.1.0@sha256:${'a'.repeat(64)}`, 'ghcr.io/binnacle/binnacle:0.2.0'],
    [`ghcr.io/binnacle/binnacle@sha256:${'a'.repeat(64)}`, 'ghcr.io/binnacle/binnacle:0.2.0'],
  ])('keeps the repository of %s', (image, expected) => {
    expect(retag(image, '0.2.0')).toBe(expected);
  });

  it('takes tags as the OCI distribution spec allows them, and nothing that could change the repository', () => {
    const valid = new RegExp(tagPattern);
    for (const tag of ['0.2.0', 'v1.2.3-rc.1', 'latest', '_build', 'a'.repeat(64)])
      expect(valid.test(tag), tag).toBe(true);
    for (const tag of ['', '-x', '.x', 'a'.repeat(65), '1.0/evil', 'x:y', 'x@sha256', '0.2.0\n'])
      expect(valid.test(tag), tag).toBe(false);
  });
});
