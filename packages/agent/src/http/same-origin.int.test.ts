import { get } from 'node:http';
import { openTerminal } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../testing/index.ts';

// `--auth-mode none` on loopback (a laptop): other pages in the same browser must not reach the agent.
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent({ start: false });
});
afterAll(() => agent?.close());

const opened = (url: string, headers: Record<string, string>) =>
  openTerminal(url, headers).then(
    (terminal) => {
      terminal.close();
      return 'opened';
    },
    (refusal: Error) => refusal.message,
  );

describe('pages of other sites', () => {
  it('cannot open a terminal on the machine (cross-site WebSocket); the agent’s own page can', async () => {
    const terminal = `${agent.url.replace('http', 'ws')}/api/local-terminal`;
    expect(await opened(terminal, { origin: 'https://evil.example' })).toMatch(
      /403 .*"code":"origin_rejected"/,
    );
    expect(await opened(terminal, { origin: agent.url })).toBe('opened');
  });

  it('cannot change anything; requests without a browser (no Origin) are not affected', async () => {
    const post = (origin?: string) =>
      agent.request('/api/workloads/deployments/nowhere/nothing/restart', {
        method: 'POST',
        headers: origin ? { origin } : {},
      });
    const foreign = await post('http://localhost:3000');
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ code: 'origin_rejected' });
    for (const answer of [await post(agent.url), await post()])
      expect(((await answer.json()) as { code?: string }).code).not.toBe('origin_rejected');
  });

  it('cannot read through a name re-pointed at 127.0.0.1 (DNS rebinding); loopback names answer', async () => {
    const port = new URL(agent.url).port;
    // What a browser sends for a page on that name: the request goes to 127.0.0.1, the Host header is the name.
    const read = (host: string) =>
      new Promise<{ status: number; body: { code?: string; error?: string } }>((resolve, reject) => {
        const request = get(`${agent.url}/api/config`, { headers: { host }, timeout: 10_000 }, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        });
        request.on('timeout', () => request.destroy(new Error('no answer within 10 s')));
        request.on('error', reject);
      });
    const rebound = await read(`evil.example:${port}`);
    expect(rebound.status).toBe(403);
    expect(rebound.body.error).toContain('evil.example');
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`])
      expect((await read(host)).status, host).toBe(200);
  });
});
