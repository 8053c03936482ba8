import { execFile } from 'node:child_process';
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

  it('never hands the same port to two processes picking at once', async () => {
    const script = `import { freePort } from ${JSON.stringify(new URL('./ports.ts', import.meta.url).pathname)};
const ports = [];
for (let i = 0; i < 200; i += 1) ports.push(await freePort());
console.log(JSON.stringify(ports));`;
    const pick = () =>
      new Promise<number[]>((resolve, reject) => {
        execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout) =>
          error ? reject(error) : resolve(JSON.parse(stdout) as number[]),
        );
      });
    const [first, second] = await Promise.all([pick(), pick()]);
    const shared = first.filter((port) => second.includes(port));
    expect(first).toHaveLength(200);
    expect(shared).toEqual([]);
  });
});
