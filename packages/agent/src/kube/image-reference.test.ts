import { describe, expect, it } from 'vitest';
import { keyMatches } from '../features/images/pull-secrets.ts';
import { parseReference } from './image-reference.ts';

describe('parseReference', () => {
  it.each([
    ['nginx', { registry: 'docker.io', repository: 'library/nginx', tag: 'latest', version: 'latest' }],
    ['acme/app:1.2', { registry: 'docker.io', repository: 'acme/app', tag: '1.2', version: '1.2' }],
    ['127.0.0.1:5000/team/app:v1', { registry: '127.0.0.1:5000', repository: 'team/app', tag: 'v1' }],
    ['localhost/app', { registry: 'localhost', repository: 'app', tag: 'latest' }],
    [
      `ghcr.io/acme/app:1@sha256:${'a'.repeat(64)}`,
      { registry: 'ghcr.io', repository: 'acme/app', tag: '1', version: `sha256:${'a'.repeat(64)}` },
    ],
  ])('%s', (input, expected) => {
    expect(parseReference(input)).toMatchObject(expected);
  });

  it.each([
    ['UPPER/case', 'lowercase'],
    ['app:tag:extra', 'lowercase'],
    ['app@sha256:xyz', 'digest'],
    ['app:', 'tag'],
    ['a@b@c', 'more than one'],
  ])('refuses %s with a message naming the parameter', (input, why) => {
    expect(() => parseReference(input)).toThrow(/query parameter "image".*/);
    expect(() => parseReference(input)).toThrow(new RegExp(why));
  });
});

describe('keyMatches', () => {
  it.each([
    ['https://index.docker.io/v1/', 'docker.io', true],
    ['registry.example:5000', 'registry.example:5000', true],
    ['https://registry.example:5000/v2/', 'registry.example:5000', true],
    ['registry.example', 'registry.example:5000', false],
    ['*.example.com', 'eu.example.com', true],
    ['*.example.com', 'a.b.example.com', false],
  ])('%s for %s: %s', (key, registry, expected) => {
    expect(keyMatches(key, registry)).toBe(expected);
  });

  it('matches a Secret key of many globs in linear time', () => {
    // On RegExp each `*` was a `[^.:]*` that backtracks into the others: polynomial in the host's length.
    const start = performance.now();
    expect(keyMatches(`${'*'.repeat(40)}x.example`, `${'a'.repeat(200)}.example`)).toBe(false);
    expect(performance.now() - start).toBeLessThan(1_000);
  });
});
