import { describe, expect, it } from 'vitest';

describe('the runtime', () => {
  it('is the Node 24 the repository pins, not the system Node', () => {
    process.stdout.write(`tests run on Node ${process.version}\n`);
    expect(process.versions.node.split('.')[0]).toBe('24');
  });
});
