import { describe, expect, it } from 'vitest';
import { configDefaults } from '../config/agent-config.ts';
import { exposureNotice } from './exposure.ts';

const config = (overrides: { listenAddress?: string; cloudUrl?: string }) => ({
  ...configDefaults(),
  ...overrides,
});

describe('the start notice about who can reach the port', () => {
  it('says nothing for an agent on loopback', () => {
    for (const listenAddress of ['127.0.0.1', '127.0.0.2', '::1', 'localhost'])
      expect(exposureNotice(config({ listenAddress }), 'http://x:9280'), listenAddress).toBeUndefined();
  });

  it('warns that a standalone agent beyond loopback has no authentication', () => {
    for (const listenAddress of ['0.0.0.0', '::', '10.0.0.7'])
      expect(exposureNotice(config({ listenAddress }), 'http://localhost:9280'), listenAddress).toBe(
        `WARNING: no authentication on http://localhost:9280: whoever reaches it reads the cluster as this agent's identity, Secrets included (docs/agent.md, "Who can reach the agent")`,
      );
  });

  it('names the hub in cloud mode, wherever the port listens', () => {
    const cloudUrl = 'https://hub.example.com/';
    expect(exposureNotice(config({ listenAddress: '0.0.0.0', cloudUrl }), 'http://localhost:9280')).toBe(
      'cloud mode: the API is served only through https://hub.example.com/c/<cluster_id>/; http://localhost:9280 answers only /api/health',
    );
  });
});
