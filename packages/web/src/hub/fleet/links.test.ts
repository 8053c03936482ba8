import { describe, expect, it } from 'vitest';
import { certificatePage, objectPage, packagePage } from './links.ts';

describe("fleet rows' deep links into a cluster's pages", () => {
  it('opens namespaced and cluster-scoped objects, and kinds named with their group', () => {
    expect(objectPage('c1', { kind: 'Pod', namespace: 'shop', name: 'web-0' })).toBe(
      '/c/c1/resources/Pod/shop/web-0?namespace=shop',
    );
    expect(objectPage('c1', { kind: 'Node', name: 'n1' })).toBe('/c/c1/resources/Node/_/n1');
    expect(
      objectPage('c1', { kind: 'Application', group: 'argoproj.io', namespace: 'argo', name: 'a' }),
    ).toBe('/c/c1/resources/Application.argoproj.io/argo/a?namespace=argo');
  });

  it('opens certificates filtered on their page, and Helm releases only when there is one', () => {
    expect(certificatePage('c1', { namespace: 'shop', name: 'tls' })).toBe(
      '/c/c1/certificates?namespace=shop&q=tls',
    );
    expect(packagePage('c1', { namespace: 'db', releaseName: 'pg' })).toBe('/c/c1/helm/db/pg?namespace=db');
    expect(packagePage('c1', {})).toBeUndefined();
  });
});
