import { afterEach, describe, expect, it } from 'vitest';
import { nodeCountFromEnv } from './control-plane.ts';

describe('BINNACLE_CLUSTER_NODES', () => {
  const saved = process.env.BINNACLE_CLUSTER_NODES;
  afterEach(() => {
    if (saved === undefined) delete process.env.BINNACLE_CLUSTER_NODES;
    else process.env.BINNACLE_CLUSTER_NODES = saved;
  });

  it('defaults to 3 nodes', () => {
    delete process.env.BINNACLE_CLUSTER_NODES;
    expect(nodeCountFromEnv()).toBe(3);
  });

  it('takes a whole number', () => {
    process.env.BINNACLE_CLUSTER_NODES = '12';
    expect(nodeCountFromEnv()).toBe(12);
  });

  it.each(['0', '-1', '2.5', 'three', '501'])('rejects %s with a message naming the variable', (value) => {
    process.env.BINNACLE_CLUSTER_NODES = value;
    expect(() => nodeCountFromEnv()).toThrow(
      `BINNACLE_CLUSTER_NODES must be a whole number from 1 to 500, got "${value}"`,
    );
  });
});
