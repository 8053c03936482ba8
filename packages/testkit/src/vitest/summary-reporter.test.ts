import { describe, expect, it } from 'vitest';
import { slowestFiles } from './summary-reporter.ts';

describe('slowestFiles', () => {
  it('names the slowest files first, in whole seconds, relative to the root, at most fifteen', () => {
    const modules = Array.from({ length: 20 }, (_, i) => ({
      moduleId: `/repo/test/f${i}.int.test.ts`,
      seconds: i + 0.4,
    }));
    const lines = slowestFiles(modules, '/repo');
    expect(lines).toHaveLength(15);
    expect(lines[0]).toBe('   19 s  test/f19.int.test.ts');
    expect(lines[14]).toBe('    5 s  test/f5.int.test.ts');
  });
});
