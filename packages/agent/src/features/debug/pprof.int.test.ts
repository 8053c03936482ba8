import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';
import { pprofProfiles } from './pprof-routes.ts';

/** Every /debug/pprof route takes what it says from this very process, in a format a profiler opens. */
let agent: TestAgent;

beforeAll(async () => {
  agent = await startTestAgent();
}, 120_000);

afterAll(async () => {
  await agent?.close();
});

describe('/debug/pprof', () => {
  it('lists each profile with its path, and each path answers', async () => {
    const index = await agent.json<{ profiles: { name: string; path: string }[] }>('/debug/pprof/');
    expect(index.profiles.map((p) => p.name)).toEqual(pprofProfiles.map((p) => p.name));
    expect((await agent.request('/debug/pprof/mutex')).status).toBe(404);
  });

  it('takes a CPU profile and an allocation profile DevTools opens, one capture at a time', async () => {
    // The one wait kept: a capture under way shows only as the 409 a second request gets, and that request would
    // start a capture of its own had it come first; 300 ms into a 2 s capture leaves no doubt which came first.
    const [cpu, busy] = await Promise.all([
      agent.request('/debug/pprof/profile?seconds=2'),
      new Promise((done) => setTimeout(done, 300)).then(() => agent.request('/debug/pprof/allocs?seconds=1')),
    ]);
    expect(cpu.status).toBe(200);
    expect(cpu.headers.get('content-disposition')).toMatch(/\.cpuprofile"$/);
    const profile = (await cpu.json()) as { nodes: unknown[]; startTime: number; endTime: number };
    expect(profile.nodes.length).toBeGreaterThan(0);
    expect(profile.endTime - profile.startTime).toBeGreaterThanOrEqual(1_900_000);
    expect(busy.status).toBe(409);
    expect(await busy.json()).toMatchObject({
      code: 'conflict',
      error: expect.stringContaining('CPU profile'),
    });

    const allocs = await agent.request('/debug/pprof/allocs?seconds=1');
    expect(allocs.headers.get('content-disposition')).toMatch(/\.heapprofile"$/);
    const sampled = (await allocs.json()) as { head: { callFrame: object; children: unknown[] } };
    expect(sampled.head.callFrame).toBeDefined();
  });

  it('streams a heap snapshot and records trace events', async () => {
    const heap = await agent.request('/debug/pprof/heap');
    expect(heap.headers.get('content-disposition')).toMatch(/\.heapsnapshot"$/);
    const text = await heap.text();
    expect(JSON.parse(text)).toHaveProperty('snapshot.meta');
    const trace = await agent.json<{ traceEvents: { ph: string; cat: string }[] }>(
      '/debug/pprof/trace?seconds=1',
    );
    expect(trace.traceEvents.length).toBeGreaterThan(0);
    expect(trace.traceEvents[0]).toEqual(
      expect.objectContaining({ ph: expect.any(String), cat: expect.any(String) }),
    );
  });

  it('measures the event loop, and reports the process without its environment', async () => {
    const block = await agent.json<{ delayMs: { p99: number; max: number }; utilization: number }>(
      '/debug/pprof/block?seconds=1',
    );
    expect(block.delayMs.max).toBeGreaterThanOrEqual(block.delayMs.p99);
    expect(block.utilization).toBeGreaterThanOrEqual(0);
    const report = await agent.json<Record<string, unknown>>('/debug/pprof/goroutine');
    expect(report).toHaveProperty('javascriptStack');
    expect(report).toHaveProperty('libuv');
    expect(report).not.toHaveProperty('environmentVariables');
    const threads = await agent.json<{ workers: unknown[]; threadpoolSize: number }>(
      '/debug/pprof/threadcreate',
    );
    expect(threads.threadpoolSize).toBeGreaterThan(0);
    const cmdline = await agent.request('/debug/pprof/cmdline');
    expect((await cmdline.text()).split('\0')).toEqual(process.argv);
  });

  it('refuses a capture length outside 1–60 seconds', async () => {
    for (const seconds of ['0', '61', 'x']) {
      const response = await agent.request(`/debug/pprof/profile?seconds=${seconds}`);
      expect(response.status, seconds).toBe(400);
    }
  });
});
