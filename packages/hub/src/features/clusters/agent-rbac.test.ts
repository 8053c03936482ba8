import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { agentClusterRoleRules, agentRbac, shellWord } from './agent-rbac.ts';

const ada = { user: 'binnacle:user:ada@example.com', groups: ['binnacle:role:owner'] };

describe('the RBAC an agent outside the chart needs', () => {
  it("is a ClusterRole with the chart's rules, bound to the identity the agent runs as", () => {
    const { manifest } = agentRbac(ada, 'roles');
    const [role, binding] = parseAllDocuments(manifest).map((d) => d.toJS() as Record<string, unknown>);
    expect(role).toMatchObject({ kind: 'ClusterRole', metadata: { name: 'binnacle-agent' } });
    expect(role?.rules).toEqual(agentClusterRoleRules);
    expect(binding).toMatchObject({
      kind: 'ClusterRoleBinding',
      subjects: [{ kind: 'ServiceAccount', name: 'binnacle-agent', namespace: 'binnacle' }],
      roleRef: { kind: 'ClusterRole', name: 'binnacle-agent' },
    });
    expect(manifest).toContain('kind: User, name: <the user of its kubeconfig>');
  });

  it("binds the hub's roles as the chart does, and checks what the caller may then do", () => {
    expect(agentRbac(ada, 'roles').commands).toEqual([
      'kubectl apply -f binnacle-agent-rbac.yaml',
      'kubectl create clusterrolebinding binnacle-role-owner --clusterrole=admin --group=binnacle:role:owner',
      'kubectl create clusterrolebinding binnacle-role-member --clusterrole=edit --group=binnacle:role:member',
      'kubectl create clusterrolebinding binnacle-role-viewer --clusterrole=view --group=binnacle:role:viewer',
      'kubectl auth can-i list pods --all-namespaces --as=binnacle:user:ada@example.com --as-group=binnacle:role:owner',
    ]);
  });

  it('in clusterAccess idp mode binds no role, and shows an IdP group binding instead', () => {
    const { commands } = agentRbac({ ...ada, groups: [...ada.groups, 'binnacle:idp:/sre team'] }, 'idp');
    expect(commands.slice(0, -1).some((c) => c.includes('binnacle:role:'))).toBe(false);
    expect(commands[2]).toContain('--group=binnacle:idp:/platform-admins');
    expect(commands.at(-1)).toMatch(/ '--as-group=binnacle:idp:\/sre team'$/);
  });

  it('quotes a shell word only when it needs it, and a quote inside it', () => {
    expect(shellWord('--as=binnacle:user:a.b+c@example.com')).toBe('--as=binnacle:user:a.b+c@example.com');
    expect(shellWord("--as-group=binnacle:idp:o'neil;rm")).toBe("'--as-group=binnacle:idp:o'\\''neil;rm'");
  });
});
