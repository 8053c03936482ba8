import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock.ts';
import { DeviceCookies, deviceLifetimeMs } from './device-cookie.ts';

const key = Buffer.alloc(32, 7);

describe('DeviceCookies', () => {
  it('issues a cookie for the sign-in route only, valid for its account for 90 days', () => {
    const clock = new ManualClock();
    const devices = new DeviceCookies(key, clock, 'https://hub.example.com');
    const { value, options } = devices.issue('admin@example.com');
    expect(devices.name).toBe('__Secure-binnacle_device');
    expect(options).toMatchObject({
      path: '/api/auth/break-glass',
      httpOnly: true,
      secure: true,
      sameSite: 'strict',
    });
    expect(value).not.toContain('admin');
    const device = devices.verify(value, 'admin@example.com');
    expect(device).toMatch(/^[\w-]{22}$/);
    expect(devices.verify(value, 'other@example.com')).toBeUndefined();
    clock.advance(deviceLifetimeMs - 1);
    expect(devices.verify(value, 'admin@example.com')).toBe(device);
    clock.advance(1);
    expect(devices.verify(value, 'admin@example.com')).toBeUndefined();
  });

  it('refuses a cookie of another key, a changed one, and garbage', () => {
    const clock = new ManualClock();
    const devices = new DeviceCookies(key, clock, 'http://localhost:9380');
    expect(devices.name).toBe('binnacle_device');
    const { value } = devices.issue('admin@example.com');
    const [nonce, issuedAt, mac] = value.split('.');
    const elsewhere = new DeviceCookies(Buffer.alloc(32, 8), clock, 'http://localhost:9380');
    for (const forged of [
      elsewhere.issue('admin@example.com').value,
      `${nonce}.${Number(issuedAt) + 86_400}.${mac}`,
      `x${nonce}.${issuedAt}.${mac}`,
      `${value}.extra`,
      'garbage',
      '',
      undefined,
    ]) {
      expect(devices.verify(forged, 'admin@example.com')).toBeUndefined();
    }
  });
});
