import { checkClaim, checkScopes } from '@binnacle/common/oidc';
import { describe, expect, it } from 'vitest';
import { settingChecks } from './setting-checks.ts';

const checks = { ...settingChecks, scopes: checkScopes, claim: checkClaim };
type Name = keyof typeof checks;

// What a person writes that must keep working, beside what must be refused.
const cases: [Name, string[], string[]][] = [
  [
    'listenAddress',
    ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'agent.internal', 'fd00::5'],
    ['not an address', '999.1.1.1', 'agent_1', '-agent', 'http://agent'],
  ],
  ['namespace', ['default', 'kube-system', 'a1'], ['Bad_NS', 'a.b', '-x', 'x'.repeat(64)]],
  // --namespace: watched namespaces, at most 50 (each a LIST and a WATCH per kind, ADR 0121).
  [
    'namespaces',
    ['shop', 'shop,billing', ' shop , billing ', Array.from({ length: 50 }, (_, i) => `n${i}`).join(',')],
    ['', ',', 'shop,Bad_NS', 'a.b', Array.from({ length: 51 }, (_, i) => `n${i}`).join(',')],
  ],
  ['objectName', ['binnacle-agent', 'agent.v2'], ['Bad_Name', 'agent_1']],
  ['headerName', ['X-Forwarded-User', 'x-auth-request-groups'], ['X User', 'X:User', '']],
  [
    'hostPort',
    ['hubble-relay.kube-system.svc:80', '10.0.0.1:4245', '[fd00::1]:4245'],
    ['relay', 'relay:port'],
  ],
  [
    'image',
    ['busybox:1.37', 'registry.example:5000/tools/shell:v1', `alpine@sha256:${'a'.repeat(64)}`],
    ['Busy Box', 'busybox:', 'UPPER/case'],
  ],
  [
    'helmRepositories',
    ['charts=https://charts.example', 'a=http://127.0.0.1:8080,b=oci://127.0.0.1:5000/charts'],
    ['no-url-here', 'a=ftp://x', 'a=https://x,a=https://y', 'A=https://x'],
  ],
  ['headerList', ['Authorization=Bearer abc', 'X-Scope-OrgID=1,X-Team=a'], ['Authorization', 'X Y=1']],
  ['proxyAddresses', ['10.0.0.5', '10.1.0.0/16, fd00::/8'], ['not-a-cidr', '10.0.0.0/99', '10.0.0.1/8/1']],
  ['scopes', ['offline_access', 'offline_access, groups', 'read:all'], ['offline access', 'a"b']],
  ['claim', ['email', 'groups', 'https://example.com/groups'], [' ', ' email', 'email ']],
];

describe('the checks of text settings', () => {
  it.each(cases)(
    '%s takes what a person writes and refuses the rest, naming the setting',
    (name, good, bad) => {
      for (const value of good) expect(() => checks[name](value, '--setting'), value).not.toThrow();
      for (const value of bad) expect(() => checks[name](value, '--setting'), value).toThrow(/^--setting/);
    },
  );
});
