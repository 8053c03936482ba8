import { describe, expect, it } from 'vitest';
import { waitUntil } from './wait.ts';

describe('waitUntil', () => {
  it('resolves as soon as the check passes', async () => {
    let calls = 0;
    await waitUntil('counter', () => Promise.resolve(++calls === 3), { timeoutMs: 2000, intervalMs: 1 });
    expect(calls).toBe(3);
  });

  it('names what did not come up and the last failure on timeout', async () => {
    const failing = (): Promise<boolean> => Promise.reject(new Error('connection refused'));
    await expect(waitUntil('kube-apiserver', failing, { timeoutMs: 30, intervalMs: 5 })).rejects.toThrow(
      'kube-apiserver did not come up within 0.03s (last: connection refused)',
    );
  });
});
