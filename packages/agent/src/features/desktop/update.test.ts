import { describe, expect, it } from 'vitest';
import { Updater } from './update.ts';

describe('the desktop updater without its settings', () => {
  it('answers update_not_configured without --update-url, and keeps its state', async () => {
    const updater = new Updater({ currentVersion: '1.0.0', executable: '/nonexistent/binnacle' });
    await expect(updater.check()).rejects.toMatchObject({ code: 'update_not_configured', status: 503 });
    await expect(updater.apply()).rejects.toMatchObject({ code: 'update_not_configured' });
    expect(updater.status()).toEqual({
      current: '1.0.0',
      available: false,
      state: 'idle',
      restartRequired: false,
    });
  });

  it('has nothing to replace outside the single executable', async () => {
    const updater = new Updater({ currentVersion: '1.0.0', manifestUrl: 'http://127.0.0.1:1/m.json' });
    await expect(updater.apply()).rejects.toMatchObject({ code: 'not_single_executable', status: 409 });
    expect(updater.status().state).toBe('idle');
  });
});
