import { UsageError } from '@binnacle/common/server';
import { describe, expect, it } from 'vitest';
import { parseHelmRepositories } from './helm-repositories.ts';

describe('parseHelmRepositories', () => {
  it('reads classic and OCI sources, trailing slashes dropped', () => {
    expect(
      parseHelmRepositories(
        'demo=http://127.0.0.1:8080/, oci-demo=oci://127.0.0.1:5000/charts/,bitnami=https://charts.bitnami.com/bitnami',
      ),
    ).toEqual([
      { name: 'demo', url: 'http://127.0.0.1:8080', type: 'http' },
      { name: 'oci-demo', url: 'oci://127.0.0.1:5000/charts', type: 'oci' },
      { name: 'bitnami', url: 'https://charts.bitnami.com/bitnami', type: 'http' },
    ]);
    expect(parseHelmRepositories(undefined)).toEqual([]);
    expect(parseHelmRepositories(' , ')).toEqual([]);
  });

  it.each([
    ['demo', /NAME=URL/],
    ['=http://x', /NAME=URL/],
    ['Demo=http://x', /lowercase name/],
    ['a=http://x,a=http://y', /given twice/],
    ['a=ftp://x', /http:\/\/, https:\/\/ or oci:\/\//],
    ['a=oci://registry.example.com', /oci:\/\/host\[:port\]\/path/],
    ['a=not a url', /is not a URL/],
  ])('refuses %s naming the entry', (text, message) => {
    expect(() => parseHelmRepositories(text)).toThrow(UsageError);
    expect(() => parseHelmRepositories(text)).toThrow(message);
  });
});
