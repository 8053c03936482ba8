import { describe, expect, it } from 'vitest';
import { type CheckMeta, type Finding, findingMatches, frameworkRef, groupByCheck } from './types.ts';

const finding = (over: Partial<Finding>): Finding => ({
  kind: 'Deployment',
  namespace: 'demo-shop',
  name: 'checkout',
  checkId: 'runAsRoot',
  category: 'Security',
  severity: 'warning',
  message: 'container api may run as root',
  ...over,
});
const meta = (id: string, title: string) => ({ id, title }) as CheckMeta;

describe('frameworkRef', () => {
  it('shortens CIS and NSA/CISA citations to a tag and a topic, keeping the whole text', () => {
    expect(frameworkRef('CIS Kubernetes Benchmark v1.9 5.2.7 (root containers)')).toEqual({
      tag: 'CIS 5.2.7',
      topic: 'root containers',
      full: 'CIS Kubernetes Benchmark v1.9 5.2.7 (root containers)',
    });
    expect(
      frameworkRef('NSA/CISA Kubernetes Hardening Guide v1.2: Kubernetes Pod security, non-root containers'),
    ).toMatchObject({ tag: 'NSA/CISA', topic: 'Kubernetes Pod security, non-root containers' });
    expect(frameworkRef('Something else')).toMatchObject({ tag: 'Something else', topic: '' });
  });
});

describe('groupByCheck', () => {
  it('counts objects per check, dangerous checks first, then the most widespread', () => {
    const groups = groupByCheck(
      [
        finding({}),
        finding({ name: 'storefront' }),
        finding({ name: 'storefront', container: 'sidecar' }),
        finding({ checkId: 'privileged', severity: 'danger', name: 'agent' }),
        finding({ checkId: 'singleReplica', category: 'Reliability' }),
        finding({ checkId: 'singleReplica', category: 'Reliability', name: 'a' }),
        finding({ checkId: 'singleReplica', category: 'Reliability', name: 'b' }),
      ],
      { runAsRoot: meta('runAsRoot', 'Container may run as root') },
    );
    expect(groups.map((g) => [g.checkId, g.severity, g.objects, g.findings.length])).toEqual([
      ['privileged', 'danger', 1, 1],
      ['singleReplica', 'warning', 3, 3],
      ['runAsRoot', 'warning', 2, 3],
    ]);
    expect(groups[2]?.check?.title).toBe('Container may run as root');
  });
});

describe('findingMatches', () => {
  const checks = { runAsRoot: meta('runAsRoot', 'Container may run as root') };
  it('matches the object, the check id or the check title, in any case', () => {
    expect(findingMatches(finding({}), checks, 'CHECKOUT')).toBe(true);
    expect(findingMatches(finding({}), checks, 'deployment demo-shop')).toBe(true);
    expect(findingMatches(finding({}), checks, 'as root')).toBe(true);
    expect(findingMatches(finding({}), checks, 'runasroot')).toBe(true);
    expect(findingMatches(finding({}), checks, 'postgres')).toBe(false);
    expect(findingMatches(finding({}), checks, undefined)).toBe(true);
  });
});
