import { describe, expect, it } from 'vitest';
import { simulatedNode } from './nodes.ts';

describe('simulated nodes', () => {
  it('each get their own valid /24 of pod addresses, past the 256th node too', () => {
    const cidrs = [0, 1, 255, 256, 499, 3071].map((i) => simulatedNode(`n${i}`, i, 'v1.36.3').spec?.podCIDR);
    expect(cidrs).toEqual([
      '10.244.0.0/24',
      '10.244.1.0/24',
      '10.244.255.0/24',
      '10.245.0.0/24',
      '10.245.243.0/24',
      '10.255.255.0/24',
    ]);
  });
});
