import { AppError } from '@binnacle/common/server';
import { describe, expect, it } from 'vitest';
import { isTunneled, tunneledUrl } from './tunneled-url.ts';

const id = '5f0c3a1e-8d2b-4c7a-9e61-2b9f0d4c8a17';

describe('tunneledUrl', () => {
  it('decodes the cluster id once and passes the rest on exactly as written', () => {
    expect(tunneledUrl(`/c/${id}/api/health`)).toEqual({ clusterId: id, agentPath: '/api/health' });
    expect(tunneledUrl(`/c/%35${id.slice(1)}/api/health`)).toEqual({
      clusterId: id,
      agentPath: '/api/health',
    });
    expect(tunneledUrl(`/c/${id}/api/pods/a%20b/logs?grep=%2F&x=..`)).toEqual({
      clusterId: id,
      agentPath: '/api/pods/a%20b/logs?grep=%2F&x=..',
    });
    expect(tunneledUrl(`/c/${id}`)).toEqual({ clusterId: id, agentPath: '/' });
    expect(tunneledUrl(`/c/${id}?namespace=x`)).toEqual({ clusterId: id, agentPath: '/?namespace=x' });
    // Decoded once: an encoded "%" stays an escape for the agent to decode.
    expect(tunneledUrl(`/c/${id}/api/x%252F`)?.agentPath).toBe('/api/x%252F');
  });

  it('is undefined for URLs outside /c/', () => {
    for (const url of ['/api/health', '/cluster/x', '/c', '/mcp']) {
      expect(tunneledUrl(url)).toBeUndefined();
      expect(isTunneled(url)).toBe(false);
    }
    expect(isTunneled(`/c/${id}/api`)).toBe(true);
  });

  it.each([
    `/c/${id}%2Fapi/health`,
    `/c/${id}%2fapi/health`,
    `/c/${id}%5Capi/health`,
    `/c/${id}/api/resources/pods/default/a%2Fb`,
    `/c/${id}/api/../../other/api/health`,
    `/c/${id}/api/%2e%2e/x`,
    `/c/${id}/./api/health`,
    `/c/%2E%2E/api/health`,
    '/c/../api/health',
    `/c/${id}/api/%E0%A4%A`,
    '/c//api/health',
  ])('refuses %s with 400', (url) => {
    let refused: unknown;
    try {
      tunneledUrl(url);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(400);
  });
});
