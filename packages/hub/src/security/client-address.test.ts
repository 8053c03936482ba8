import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { parseNetwork } from './addresses.ts';
import { clientAddress, proxyTrust } from './client-address.ts';

const request = (peer: string, forwardedFor?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  }) as unknown as IncomingMessage;
const networks = (...texts: string[]) =>
  texts.map((text) => parseNetwork(text)).filter((n) => n !== undefined);

describe('the client address behind trusted proxies', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(proxyTrust([], undefined)).toBeUndefined();
    expect(clientAddress(request('198.51.100.2', '203.0.113.7'), undefined)).toBe('198.51.100.2');
  });

  it('walks X-Forwarded-For back through the listed proxies to the first address that is not one', () => {
    const trust = proxyTrust(networks('10.0.0.0/8', '::1'), undefined);
    expect(clientAddress(request('10.1.2.3', '203.0.113.7'), trust)).toBe('203.0.113.7');
    expect(clientAddress(request('10.1.2.3', '6.6.6.6, 203.0.113.7, 10.9.9.9'), trust)).toBe('203.0.113.7');
    expect(clientAddress(request('::ffff:10.1.2.3', '203.0.113.7'), trust)).toBe('203.0.113.7');
    expect(clientAddress(request('::1', '203.0.113.7'), trust)).toBe('203.0.113.7');
    // A peer that is not a listed proxy is the client: what it writes in the header is ignored.
    expect(clientAddress(request('198.51.100.2', '203.0.113.7'), trust)).toBe('198.51.100.2');
  });

  it('believes as many hops as counted, and with a list, only listed ones', () => {
    const hops = proxyTrust([], 2);
    expect(clientAddress(request('192.0.2.1', '6.6.6.6, 203.0.113.7, 192.0.2.9'), hops)).toBe('203.0.113.7');
    const both = proxyTrust(networks('192.0.2.0/24'), 1);
    expect(clientAddress(request('192.0.2.1', '203.0.113.7, 192.0.2.9'), both)).toBe('192.0.2.9');
    expect(clientAddress(request('198.51.100.2', '203.0.113.7'), both)).toBe('198.51.100.2');
  });
});
