import { describe, expect, it } from 'vitest';
import { decodeContent, maxSaveBytes } from './downloads.ts';

describe("save-file's content", () => {
  it('decodes text and strict base64', () => {
    expect(decodeContent('héllo', 'utf8').toString()).toBe('héllo');
    expect(decodeContent('aGk=', 'base64').toString()).toBe('hi');
    expect(decodeContent('aGVsbG8h', 'base64').toString()).toBe('hello!');
    expect(decodeContent('', 'base64').length).toBe(0);
  });

  it.each(['aGk', 'aG=k', 'a===', 'aGk=\n', 'a-_b', 'aGk=aGk='])(
    'refuses %j as base64 with 400',
    (content) => {
      expect(() => decodeContent(content, 'base64')).toThrow(
        expect.objectContaining({
          code: 'invalid_request',
          status: 400,
          message: expect.stringMatching(/base64/),
        }),
      );
    },
  );

  it('refuses more than 64 MiB with 413', () => {
    expect(() => decodeContent('x'.repeat(maxSaveBytes + 1), 'utf8')).toThrow(
      expect.objectContaining({ code: 'payload_too_large', status: 413 }),
    );
  });
});
