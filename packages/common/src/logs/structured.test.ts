import { describe, expect, it } from 'vitest';
import { maxFields, maxParsedChars, normalizeLevel, parseStructured } from './structured.ts';

describe('parseStructured', () => {
  it('reads a JSON object with nested keys dotted and non-strings as JSON text', () => {
    const line = parseStructured(
      '{"time":"2026-11-29T10:00:00Z","log":{"level":"ERROR"},"message":"charge failed","order":{"id":7},"tags":["a"],"ok":false}',
    );
    expect(line).toEqual({
      format: 'json',
      fields: {
        time: '2026-11-29T10:00:00Z',
        'log.level': 'ERROR',
        message: 'charge failed',
        'order.id': '7',
        tags: '["a"]',
        ok: 'false',
      },
      level: 'error',
      message: 'charge failed',
      time: '2026-11-29T10:00:00Z',
    });
  });

  it('reads logfmt with quoted values, escapes and bare keys', () => {
    expect(parseStructured('ts=1 lvl=WARN msg="disk \\"almost\\" full" path=/var retry')).toEqual({
      format: 'logfmt',
      fields: { ts: '1', lvl: 'WARN', msg: 'disk "almost" full', path: '/var', retry: '' },
      level: 'warn',
      message: 'disk "almost" full',
      time: '1',
    });
    expect(parseStructured('level=info seq=3 msg="GET /healthz 200 1ms"')?.level).toBe('info');
    expect(parseStructured('a= b=2')?.fields).toEqual({ a: '', b: '2' });
  });

  it('leaves prose, arrays, broken JSON and broken logfmt as text', () => {
    for (const text of [
      'GET /api/orders 200 14ms',
      'cache refreshed entries=128',
      'worker heartbeat queue_depth=3',
      'only=one',
      '[1,2]',
      '{"level":"info"',
      '{not json}',
      'a=1 b="unclosed',
      'a=1 b="x"y',
      'a=1 b=x"y',
      'a=1 "b"=2',
      '=1 b=2',
      '',
    ])
      expect(parseStructured(text), text).toBeUndefined();
  });

  it('caps the line length and the number of keys', () => {
    expect(parseStructured(`a=1 b=${'x'.repeat(maxParsedChars)}`)).toBeUndefined();
    const many = Array.from({ length: 200 }, (_, i) => `k${i}=${i}`).join(' ');
    expect(Object.keys(parseStructured(many)?.fields ?? {})).toHaveLength(maxFields);
    const json = JSON.stringify(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i])));
    expect(Object.keys(parseStructured(json)?.fields ?? {})).toHaveLength(maxFields);
  });

  it('reads a pathological line in linear time', () => {
    const quotes = `a=1 b="${'\\"'.repeat(5000)}`;
    const equals = `a=1 ${'='.repeat(maxParsedChars - 10)}`;
    const started = performance.now();
    for (let i = 0; i < 50; i += 1) {
      parseStructured(quotes);
      parseStructured(equals);
    }
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('normalizeLevel', () => {
  it('maps words case-insensitively and bunyan/pino numbers', () => {
    const cases: [string, string | undefined][] = [
      ['ERROR', 'error'],
      ['err', 'error'],
      ['Fatal', 'error'],
      ['panic', 'error'],
      ['warning', 'warn'],
      ['WARN', 'warn'],
      ['info', 'info'],
      ['notice', 'info'],
      ['DEBUG', 'debug'],
      ['trace', 'debug'],
      ['10', 'debug'],
      ['20', 'debug'],
      ['30', 'info'],
      ['40', 'warn'],
      ['45', 'warn'],
      ['50', 'error'],
      ['60', 'error'],
      ['5', undefined],
      ['70', undefined],
      ['loud', undefined],
      ['', undefined],
    ];
    for (const [value, level] of cases) expect(normalizeLevel(value), value).toBe(level);
  });
});
