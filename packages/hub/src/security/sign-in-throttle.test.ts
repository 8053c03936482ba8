import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock.ts';
import { SignInThrottle, signInLimits } from './sign-in-throttle.ts';

const account = 'admin@example.com';
const from = (address: string, device?: string) => ({ account, address, device });

describe('SignInThrottle', () => {
  it('holds one client address after 5 failures for 5 minutes, and no other address', () => {
    const clock = new ManualClock();
    const throttle = new SignInThrottle(clock);
    for (let i = 0; i < 5; i++) {
      expect(throttle.waitMs(from('203.0.113.7'))).toBe(0);
      throttle.failed(from('203.0.113.7'));
    }
    expect(throttle.waitMs(from('203.0.113.7'))).toBe(5 * 60_000);
    expect(throttle.waitMs(from('198.51.100.2'))).toBe(0);
    expect(throttle.waitMs({ account: 'other@example.com', address: '203.0.113.7' })).toBe(0);
    clock.advance(5 * 60_000);
    expect(throttle.waitMs(from('203.0.113.7'))).toBe(0);
  });

  it('delays the account for every client that is not a known device, doubling from 1 s to 5 minutes', () => {
    const clock = new ManualClock();
    const throttle = new SignInThrottle(clock);
    const { free, maxDelayMs } = signInLimits.account;
    let address = 0;
    const next = () => from(`203.0.113.${++address}`);
    for (let i = 0; i < free; i++) throttle.failed(next());
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      const wait = throttle.waitMs(next());
      waits.push(wait);
      clock.advance(wait);
      throttle.failed(next());
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300].map((s) => s * 1000));
    expect(Math.max(...waits)).toBe(maxDelayMs);
    // A known device is not held back by the account's delay, only by its own count.
    expect(throttle.waitMs(from('203.0.113.250'))).toBe(5 * 60_000);
    expect(throttle.waitMs(from('203.0.113.250', 'device-1'))).toBe(0);
    for (let i = 0; i < 5; i++) throttle.failed(from('203.0.113.250', 'device-1'));
    expect(throttle.waitMs(from('203.0.113.251', 'device-1'))).toBe(5 * 60_000);
    expect(throttle.waitMs(from('203.0.113.251', 'device-2'))).toBe(0);
    // Failures older than an hour no longer count.
    clock.advance(signInLimits.account.windowMs);
    expect(throttle.accountDelayMs(account)).toBe(0);
  });

  it("starts a client's count again at its success, not the account's", () => {
    const clock = new ManualClock();
    const throttle = new SignInThrottle(clock);
    for (let i = 0; i < 4; i++) throttle.failed(from('198.51.100.2'));
    throttle.succeeded(from('198.51.100.2'));
    for (let i = 0; i < 4; i++) throttle.failed(from('198.51.100.2'));
    expect(throttle.waitMs(from('198.51.100.2'))).toBe(0);
    for (let i = 0; i < 2; i++) throttle.failed(from('198.51.100.3'));
    expect(throttle.accountDelayMs(account)).toBe(1_000);
  });
});
