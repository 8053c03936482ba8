import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './ports.ts';

describe('free loopback ports', () => {
  it('picks ports below the ephemeral range, which outgoing connections never take', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
    }
  });

  it('answers a port that can be bound', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});
