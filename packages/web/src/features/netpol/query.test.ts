import { describe, expect, it } from 'vitest';
import { asks, draftOf, parseEndpoint, portOf, searchOf } from './query.ts';

describe('the tester URL and its form', () => {
  it('reads endpoints as the agent writes them', () => {
    expect(parseEndpoint('pod/demo-shop/web-0')).toEqual({
      kind: 'pod',
      namespace: 'demo-shop',
      name: 'web-0',
    });
    expect(parseEndpoint('ip/2001:db8::1')).toEqual({ kind: 'ip', namespace: '', name: '2001:db8::1' });
    expect(parseEndpoint(undefined)).toBeUndefined();
  });

  it('keeps a port a number when it is one, and other text as text', () => {
    expect(portOf(' 8080 ')).toBe(8080);
    expect(portOf('http')).toBe('http');
    expect(portOf('')).toBeUndefined();
  });

  it('round-trips a pod to Service question through the form', () => {
    const search = {
      source: 'pod/demo-shop/storefront-1',
      destination: 'service/demo-shop/checkout',
      port: 80,
      protocol: 'TCP' as const,
    };
    expect(searchOf(draftOf(search))).toEqual(search);
    expect(asks(search)).toBe(true);
  });

  it('round-trips a labelled pod to an address, and starts an empty form in the namespace in view', () => {
    const search = {
      sourceNamespace: 'demo-shop',
      sourceLabels: 'app=cron',
      destination: 'ip/203.0.113.7',
      protocol: 'UDP' as const,
    };
    expect(searchOf(draftOf(search))).toEqual({ ...search, port: undefined });
    const empty = draftOf({}, 'demo-data');
    expect([empty.source.mode, empty.source.namespace, empty.destination.namespace]).toEqual([
      'pod',
      'demo-data',
      'demo-data',
    ]);
    expect(asks({})).toBe(false);
  });
});
