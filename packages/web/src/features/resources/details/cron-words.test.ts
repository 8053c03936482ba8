import { describe, expect, it } from 'vitest';
import { cronWords } from './cron-words.ts';

describe('cronWords', () => {
  it.each([
    ['*/5 * * * *', 'Every 5 minutes'],
    ['* * * * *', 'Every minute'],
    ['0 * * * *', 'Every hour, on the hour'],
    ['@hourly', 'Every hour, on the hour'],
    ['15 * * * *', 'Every hour, at minute 15'],
    ['30 2 * * *', 'At 02:30 every day'],
    ['@daily', 'At 00:00 every day'],
    ['0 9 * * 1-5', 'At 09:00 on Monday to Friday'],
    ['0 9 * * MON-FRI', 'At 09:00 on Monday to Friday'],
    ['0 0 * * 0', 'At 00:00 on Sunday'],
    ['0 0 * * 7', 'At 00:00 on Sunday'],
    ['0 0 1 * *', 'At 00:00 on day 1 of the month'],
    ['0 6 1,15 * *', 'At 06:00 on days 1 and 15 of the month'],
    ['0 0 1 1 *', 'At 00:00 on day 1 of the month in January'],
    ['0 0 1 */3 *', 'At 00:00 on day 1 of the month every 3 months'],
    ['0 */2 * * *', 'Every 2 hours, on the hour'],
    ['0 9-17 * * *', 'Every hour from 09:00 to 17:00'],
    ['30 9,18 * * *', 'At 09:30 and 18:30'],
    ['*/10 9-17 * * 1-5', 'Every 10 minutes during hours 09:00 to 17:00 on Monday to Friday'],
    ['0 0 13 * 5', 'At 00:00 on day 13 of the month or on Friday'],
    ['0 12 ? * SUN', 'At 12:00 on Sunday'],
    ['@every 1h30m', 'Every 1 hour 30 minutes'],
    ['5,35 * * * *', 'At minutes 5 and 35'],
  ])('%s → %s', (schedule, words) => {
    expect(cronWords(schedule)).toBe(words);
  });

  it.each([
    '',
    '* * * *',
    '60 * * * *',
    '0 24 * * *',
    '0 0 32 * *',
    '5-1 * * * *',
    '*/0 * * * *',
    'TZ=UTC 0 0 * * *',
    '@every soon',
    '0 0 * * FUNDAY',
  ])('has no words for %j', (schedule) => {
    expect(cronWords(schedule)).toBeUndefined();
  });
});
