import { docsScreenshot, identities, openPage, seriousA11yViolations, testCluster } from '@binnacle/testkit';
import { RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';

// The Access page (docs/access.md) in Chromium against one agent: who may delete pods here, what a user may do.
const rbac = testCluster().kubeConfig('admin').makeApiClient(RbacAuthorizationV1Api);
const web = agentInBrowser('access-web');

beforeAll(async () => {
  const namespace = web.ns.name;
  await rbac.createNamespacedRole({
    namespace,
    body: {
      metadata: { name: 'pod-deleter' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'delete'] }],
    },
  });
  await rbac.createNamespacedRoleBinding({
    namespace,
    body: {
      metadata: { name: 'deleters' },
      subjects: [
        { kind: 'User', name: 'dora', apiGroup: 'rbac.authorization.k8s.io' },
        { kind: 'ServiceAccount', name: 'janitor', namespace },
      ],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-deleter' },
    },
  });
});

describe('the Access page', () => {
  it('answers who may delete pods in a namespace and what a user may do there, from the URL a link keeps', async () => {
    const namespace = web.ns.name;
    const page = await openPage(web.browser, `${web.agent.url}/access?namespace=${namespace}`);
    const who = page.getByRole('region', { name: 'Who may do this?' });
    await who.getByLabel('Verb').selectOption('delete');
    await who.getByLabel('Kind (* for all)').fill('pods');
    await who.getByRole('button', { name: 'Who may' }).click();
    await page.waitForURL(/verb=delete/);
    const subjects = who.getByRole('table');
    for (const name of ['dora', `${namespace}/janitor`])
      await subjects.getByRole('row').filter({ hasText: name }).getByText('allowed').waitFor();
    await subjects
      .getByText(`RoleBinding ${namespace}/deleters → Role ${namespace}/pod-deleter`)
      .first()
      .waitFor();
    // Kubernetes' own controllers are folded away until asked for.
    expect(await subjects.getByText('kube-system/replicaset-controller').count()).toBe(0);
    await who.getByRole('button', { name: /^Show the \d+ of Kubernetes itself$/ }).click();
    await subjects.getByText('kube-system/replicaset-controller').waitFor();
    await who.getByRole('button', { name: /^Hide the \d+ of Kubernetes itself$/ }).click();

    const what = page.getByRole('region', { name: 'What may this subject do?' });
    await what.getByLabel('Subject kind').selectOption('User');
    await what.getByLabel('Name').fill('dora');
    await what.getByRole('button', { name: 'What may it do' }).click();
    await page.waitForURL(/subject=dora/);
    const rules = what.getByRole('table');
    await rules
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'pods', exact: true }) })
      .filter({ has: page.getByRole('cell', { name: 'delete get list', exact: true }) })
      .waitFor();
    await what.getByText(`RoleBinding ${namespace}/deleters → Role ${namespace}/pod-deleter`).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    // The page scrolls inside <main>: back to its top, both questions in view.
    await page.getByRole('heading', { name: 'Access', exact: true }).evaluate((e) => {
      const main = e.closest('main');
      if (main) main.scrollTop = 0;
    });
    await docsScreenshot(page, 'access');

    // A ServiceAccount is asked in its own namespace, named beside it.
    await what.getByLabel('Subject kind').selectOption('ServiceAccount');
    await what.getByLabel('Name', { exact: true }).fill('janitor');
    await what.getByLabel('Its namespace').fill(namespace);
    await what.getByRole('button', { name: 'What may it do' }).click();
    await page.waitForURL(new RegExp(`serviceAccountNamespace=${namespace}`));
    await rules
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'pods', exact: true }) })
      .filter({ has: page.getByRole('cell', { name: 'delete get list', exact: true }) })
      .waitFor();

    // A link keeps the question: the restricted identity, asked straight from the URL, has nothing bound here.
    const linked = await openPage(
      web.browser,
      `${web.agent.url}/access?namespace=${namespace}&subjectKind=User&subject=${identities.restricted.user}`,
    );
    await linked
      .getByRole('region', { name: 'What may this subject do?' })
      .getByText('None: what it may do comes from the groups every authenticated user is in.')
      .waitFor();
    await linked.close();
    await page.close();
  });
});
