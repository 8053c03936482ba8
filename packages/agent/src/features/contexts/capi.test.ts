import { describe, expect, it } from 'vitest';
import { capiEntry } from './capi.ts';

const kubeconfig = `apiVersion: v1
kind: Config
current-context: work-admin@work
clusters:
- name: work
  cluster: {server: 'https://work.example:6443', certificate-authority-data: Q0E=}
users:
- name: work-admin
  user: {client-certificate-data: Q0VSVA==, client-key-data: S0VZ}
contexts:
- name: work-admin@work
  context: {cluster: work, user: work-admin}
`;

describe('capiEntry', () => {
  it("takes the kubeconfig's current context, renamed", () => {
    expect(capiEntry(kubeconfig, 'capi-ns-work', 'Secret ns/work-kubeconfig')).toEqual({
      name: 'capi-ns-work',
      cluster: { server: 'https://work.example:6443', 'certificate-authority-data': 'Q0E=' },
      user: { 'client-certificate-data': 'Q0VSVA==', 'client-key-data': 'S0VZ' },
    });
  });

  it('answers 422 for text that is no kubeconfig with a usable context', () => {
    for (const text of ['{', 'just text', kubeconfig.replace('user: work-admin}', 'user: nobody}')]) {
      expect(() => capiEntry(text, 'x', 'Secret ns/work-kubeconfig')).toThrow(
        expect.objectContaining({ code: 'kubeconfig_invalid', status: 422 }),
      );
    }
  });
});
