import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { slowFirst } from './sequencer.ts';

describe('the slow-first list', () => {
  it('names files that exist, so a moved or renamed test file cannot fall out of it unnoticed', () => {
    const root = resolve(import.meta.dirname, '../../../..');
    expect(slowFirst.filter((path) => !existsSync(resolve(root, path)))).toEqual([]);
  });
});
