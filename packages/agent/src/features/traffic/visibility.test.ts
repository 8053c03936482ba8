import { describe, expect, it } from 'vitest';
import type { Endpoint, ResolvedFlow } from './model.ts';
import { endpoint } from './resolve.ts';
import { hiddenEndpoint, visibleFlows } from './visibility.ts';

const record = {
  time: 0,
  source: {},
  destination: {},
  verdict: 'forwarded',
  protocol: 'TCP',
  reply: false,
  opensConnection: false,
} as const;
const flow = (source: Endpoint, destination: Endpoint): ResolvedFlow => ({ source, destination, record });
const mine = endpoint('Deployment', 'web', 'shop');
const theirs = endpoint('Deployment', 'billing', 'finance');
const node = endpoint('Node', 'n1');
const outside: Endpoint = { id: 'external/1.2.3.4', kind: 'External', name: '1.2.3.4', ip: '1.2.3.4' };

describe('what a caller sees of the flows', () => {
  const flows = [
    flow(mine, theirs),
    flow(theirs, mine),
    flow(theirs, theirs),
    flow(mine, outside),
    flow(node, theirs),
    flow(node, outside),
  ];

  it('hides an end outside its namespaces as the opaque hidden endpoint and drops flows with no end of its own', () => {
    const seen = visibleFlows(flows, { namespaces: ['shop'], nodesHidden: true });
    expect(seen.map((f) => [f.source.id, f.destination.id])).toEqual([
      ['deployment/shop/web', 'hidden'],
      ['hidden', 'deployment/shop/web'],
      ['deployment/shop/web', 'external/1.2.3.4'],
    ]);
    expect(seen[0]?.destination).toEqual(hiddenEndpoint);
  });

  it('shows everything to a caller who sees every namespace, and narrows to the requested namespaces', () => {
    expect(visibleFlows(flows, { nodesHidden: false })).toHaveLength(6);
    const requested = visibleFlows(flows, { nodesHidden: false, requested: ['finance'] });
    expect(requested.map((f) => f.destination.id)).toEqual([
      'deployment/finance/billing',
      'deployment/shop/web',
      'deployment/finance/billing',
      'deployment/finance/billing',
    ]);
  });
});
