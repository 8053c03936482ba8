import { setTimeout as sleep } from 'node:timers/promises';
import {
  deploymentBody,
  docsScreenshot,
  openPage,
  seriousA11yViolations,
  testCluster,
  waitUntil,
} from '@binnacle/testkit';
import { AppsV1Api } from '@kubernetes/client-node';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';

// The Resources page as the cluster was (docs/time-travel.md), in Chromium against one agent.
const apps = testCluster().kubeConfig('admin').makeApiClient(AppsV1Api);
const web = agentInBrowser('timetravel-web');

const open = (path: string) => openPage(web.browser, `${web.agent.url}${path}`);
const agentHas = async (name: string) =>
  (await web.agent.request(`/api/resources/deployments/${web.ns.name}/${name}`)).status === 200;

describe('time travel in the web UI', () => {
  it('shows a deleted Deployment on the Resources page as of before its deletion, marked, and live again in one click', async () => {
    const namespace = web.ns.name;
    await apps.createNamespacedDeployment({ namespace, body: deploymentBody('retired') });
    await waitUntil('the agent to see the Deployment', () => agentHas('retired'), {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    const before = new Date().toISOString();
    await apps.deleteNamespacedDeployment({ namespace, name: 'retired' });
    await waitUntil('the agent to see it deleted', async () => !(await agentHas('retired')), {
      timeoutMs: 10_000,
      intervalMs: 50,
    });

    const page = await open(`/resources/deployments?namespace=${namespace}&at=${encodeURIComponent(before)}`);
    const table = page.getByRole('region', { name: 'Deployment objects' });
    await table.getByRole('link', { name: 'retired' }).waitFor();
    const banner = page.getByRole('region', { name: 'Time travel' });
    await banner.getByText(/^As of \d\d:\d\d:\d\d/).waitFor();
    // The past cannot be changed: no row can be ticked for a delete or a restart.
    expect(await table.getByRole('checkbox').count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'time-travel-resources');

    await banner.getByRole('button', { name: 'Back to live' }).click();
    await page.getByText(`No Deployment objects in ${namespace} match.`).waitFor();
    expect(new URL(page.url()).searchParams.has('at')).toBe(false);
    await page.close();
  });

  it('opens the control on a live table and moves back with the slider to a moment the URL keeps', async () => {
    const namespace = web.ns.name;
    await apps.createNamespacedDeployment({ namespace, body: deploymentBody('later') });
    await waitUntil('the agent to see the Deployment', () => agentHas('later'), {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    const page = await open(`/resources/deployments?namespace=${namespace}`);
    await page.getByRole('link', { name: 'later' }).waitFor();
    await page.getByRole('button', { name: 'History…' }).click();
    const slider = page.getByRole('slider', { name: 'Moment' });
    // Home: the oldest kept moment of Deployments, when the agent first listed them, before "later" existed.
    await slider.focus();
    await slider.press('Home');
    await page.waitForURL(/[?&]at=/);
    await page
      .getByRole('region', { name: 'Time travel' })
      .getByText(/^As of /)
      .waitFor();
    await page.getByText(`No Deployment objects in ${namespace} match.`).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.close();
  });

  it('goes from a timeline entry to its kind as the cluster held it just before the change', async () => {
    const page = await open(`/timeline?namespace=${web.ns.name}`);
    await page
      .getByRole('button', { name: /delete.*Deployment.*retired/ })
      .first()
      .click();
    await page.getByRole('link', { name: 'just before' }).first().click();
    await page.waitForURL(/\/resources\/Deployment\?.*at=/);
    await page
      .getByRole('region', { name: 'Deployment objects' })
      .getByRole('link', { name: 'retired' })
      .waitFor();
    await page
      .getByRole('region', { name: 'Time travel' })
      .getByText(/^As of /)
      .waitFor();
    await page.close();
  });
});

// A rollout seen through time travel: the Topology page as it was before it, what changed between two timeline
// entries, and a replay of the topology through it.

const name = 'shop';
/** What the rollout leaves behind: the pods before and after it, the new ReplicaSet, a moment before it. */
const rollout = {
  oldPods: [] as string[],
  newPods: [] as string[],
  oldReplicaSet: '',
  newReplicaSet: '',
  before: 0,
};

/** The pods of the Deployment the agent holds now. */
const agentPods = async () =>
  (
    await web.agent.json<{ items: { metadata: { name: string } }[] }>(
      `/api/resources/pods?namespace=${web.ns.name}&labelSelector=app%3D${name}`,
    )
  ).items.map((p) => p.metadata.name);

/** Two pods the agent holds, none of them in `gone`. */
async function twoPodsBut(gone: readonly string[], what: string): Promise<string[]> {
  let pods: string[] = [];
  await waitUntil(
    what,
    async () => {
      pods = await agentPods();
      return pods.length === 2 && pods.every((p) => !gone.includes(p));
    },
    { timeoutMs: 60_000, intervalMs: 200 },
  );
  return pods.sort();
}

/**
 * Drags a range input's thumb with the mouse to the position of `value` (its ends are its min and max; a thumb of
 * 16 px travels the track between its half-widths), in steps, as a person drags it, then steps it (1 s a key) to
 * the value the drag could not reach within a pixel.
 */
async function dragSlider(page: Page, slider: Locator, value: number): Promise<void> {
  const [min, max, current] = await Promise.all(
    ['min', 'max', 'value'].map(async (name) => Number(await slider.getAttribute(name))),
  );
  const box = await slider.boundingBox();
  if (!box || min === undefined || max === undefined || current === undefined || max <= min)
    throw new Error('the slider has no extent to drag over');
  const thumb = 16;
  const x = (v: number) => box.x + thumb / 2 + ((box.width - thumb) * (v - min)) / (max - min);
  const y = box.y + box.height / 2;
  await page.mouse.move(x(current), y);
  await page.mouse.down();
  await page.mouse.move(x(value), y, { steps: 10 });
  await page.mouse.up();
  // A pixel of the track spans (max - min) / width: seconds once the kept window is long (a CI run's agent has
  // kept many minutes). The last seconds are stepped with the arrow keys, as a person fine-tunes a slider.
  const step = 1000;
  const off = Math.round((Number(await slider.getAttribute('value')) - value) / step);
  for (let i = 0; i < Math.min(Math.abs(off), 600); i += 1)
    await slider.press(off > 0 ? 'ArrowLeft' : 'ArrowRight');
}

const pod = (page: Page, pod: string) => page.getByRole('link', { name: `Pod ${pod}`, exact: true });

describe('a rollout through time travel in the web UI', () => {
  beforeAll(async () => {
    const namespace = web.ns.name;
    await apps.createNamespacedDeployment({ namespace, body: deploymentBody(name, 2) });
    rollout.oldPods = await twoPodsBut([], 'the agent to hold the first two pods');
    // The time field reads whole seconds: the moment asked for, a whole second, falls after the pods were seen.
    await sleep(1100);
    rollout.before = Math.floor(Date.now() / 1000) * 1000;
    await sleep(1100);
    await apps.patchNamespacedDeployment({
      namespace,
      name,
      body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: `${name}:2` }],
    });
    rollout.newPods = await twoPodsBut(rollout.oldPods, 'the agent to hold the rolled-out pods only');
    const sets = await apps.listNamespacedReplicaSet({ namespace, labelSelector: `app=${name}` });
    rollout.newReplicaSet =
      sets.items.find((rs) => rs.spec?.template?.spec?.containers[0]?.image === `${name}:2`)?.metadata
        ?.name ?? '';
    rollout.oldReplicaSet =
      sets.items.find((rs) => rs.spec?.template?.spec?.containers[0]?.image !== `${name}:2`)?.metadata
        ?.name ?? '';
    expect(rollout.newReplicaSet).not.toBe('');
    expect(rollout.oldReplicaSet).not.toBe('');
  }, 150_000);

  it('shows the topology as it was before the rollout with the time control, marked, and live again in one click', async () => {
    const page = await open(`/topology?namespace=${web.ns.name}`);
    for (const p of rollout.newPods) await pod(page, p).waitFor();
    await page.getByRole('button', { name: 'History…' }).click();
    const bar = page.getByRole('region', { name: 'Time travel' });
    // Dragged back with the mouse from now to a moment before the rollout; the time field shows where it rests.
    await dragSlider(page, bar.getByRole('slider', { name: 'Moment' }), rollout.before);
    // The moment follows the thumb after a pause: the last key's moment is the one that stays.
    await expect
      .poll(() => Math.abs(Date.parse(new URL(page.url()).searchParams.get('at') ?? '') - rollout.before), {
        timeout: 10_000,
      })
      .toBeLessThanOrEqual(1000);
    await bar.getByText(/^As of \d\d:\d\d:\d\d/).waitFor();
    const past = page.getByRole('region', { name: 'Topology graph as it was' });
    for (const p of rollout.oldPods)
      await past.getByRole('link', { name: `Pod ${p}`, exact: true }).waitFor();
    for (const p of rollout.newPods) expect(await pod(page, p).count()).toBe(0);
    // Not followed live: the status says so, and the traffic overlay (not kept) cannot be turned on.
    await page.getByRole('status').filter({ hasText: 'As it was, not updated' }).waitFor();
    expect(await page.getByRole('checkbox', { name: /Traffic of the last 5 minutes/ }).isDisabled()).toBe(
      true,
    );
    // A node's link keeps the moment: the object's page as it was.
    const oldPod = rollout.oldPods[0] as string;
    const href = (await pod(page, oldPod).getAttribute('href')) ?? '';
    expect(href).toMatch(new RegExp(`/resources/Pod/[^/]+/${oldPod}\\?`));
    expect(new URL(href, web.agent.url).searchParams.get('at')).toBe(
      new URL(page.url()).searchParams.get('at'),
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'time-travel-topology');
    const object = await openPage(web.browser, new URL(href, web.agent.url).toString());
    await object
      .getByRole('region', { name: 'Time travel' })
      .getByText(/^As of /)
      .waitFor();
    // As it was: the old image in its YAML, its ReplicaSet then among the related objects, nothing live to act on.
    await object.getByText('image: shop:1').first().waitFor();
    await object
      .getByRole('list', { name: 'Owned by' })
      .getByRole('link', { name: rollout.oldReplicaSet })
      .waitFor();
    for (const live of ['Logs', 'Terminal', 'Events'])
      expect(await object.getByRole('heading', { name: live, exact: true }).count(), live).toBe(0);
    expect(await seriousA11yViolations(object)).toEqual([]);
    await docsScreenshot(object, 'time-travel-object');
    await object.close();

    await bar.getByRole('button', { name: 'Back to live' }).click();
    for (const p of rollout.newPods) await pod(page, p).waitFor();
    for (const p of rollout.oldPods) expect(await pod(page, p).count()).toBe(0);
    expect(new URL(page.url()).searchParams.has('at')).toBe(false);
    await page.close();
  });

  it('lists what changed between two timeline entries: the Deployment modified with its template diff, a ReplicaSet created', async () => {
    const page = await open(`/timeline?namespace=${web.ns.name}&kind=Deployment,ReplicaSet`);
    const entries = page.getByRole('list', { name: 'Changes' }).getByRole('listitem');
    const updated = entries.filter({ hasText: `${name}:1 → ${name}:2` });
    await updated.first().waitFor();
    const created = entries.filter({ hasText: rollout.newReplicaSet }).filter({ hasText: 'add' });
    await created.first().getByRole('checkbox').check();
    await updated.first().getByRole('checkbox').check();
    const compare = page.getByRole('region', { name: 'Compare' });
    // Ticked later, the earlier entry is still the start.
    expect(await compare.textContent()).toMatch(
      new RegExp(`From .*\\(Deployment ${name} update\\) to .*\\(ReplicaSet ${rollout.newReplicaSet} add\\)`),
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await compare.getByRole('link', { name: 'What changed between them' }).click();
    await page.waitForURL(/\/timeline\/between\?.*from=.*to=/);

    const deployments = page.getByRole('region', { name: `Deployment in namespace ${web.ns.name}` });
    await deployments.getByRole('link', { name, exact: true }).waitFor();
    const diff = deployments.getByRole('table', { name: `Changed fields of ${name}` });
    const image = diff.getByRole('row').filter({ hasText: /containers\[shop\]\.image/ });
    expect(await image.getByRole('cell').allTextContents()).toEqual([
      `spec.template.spec.containers[${name}].image`,
      `${name}:1`,
      `${name}:2`,
    ]);
    const replicaSets = page.getByRole('region', { name: `ReplicaSet in namespace ${web.ns.name}` });
    const newSet = replicaSets.getByRole('listitem').filter({ hasText: rollout.newReplicaSet });
    expect(await newSet.getByText('created', { exact: true }).count()).toBe(1);
    // A created object opens its kind's table at the later moment, filtered to its name.
    const href = (await newSet.getByRole('link').getAttribute('href')) ?? '';
    expect(new URL(href, web.agent.url).searchParams.get('q')).toBe(rollout.newReplicaSet);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'time-travel-changes');
    await page.close();
  });

  it('goes from the topology as it was to what changed since then: the old pods deleted, the new ones created', async () => {
    const at = new Date(rollout.before).toISOString();
    const page = await open(`/topology?namespace=${web.ns.name}&at=${encodeURIComponent(at)}`);
    await page
      .getByRole('region', { name: 'Time travel' })
      .getByRole('link', { name: 'What changed since then' })
      .click();
    await page.waitForURL(/\/timeline\/between\?/);
    const pods = page.getByRole('region', { name: `Pod in namespace ${web.ns.name}` });
    for (const [list, how] of [
      [rollout.oldPods, 'deleted'],
      [rollout.newPods, 'created'],
    ] as const) {
      for (const p of list) {
        const item = pods.getByRole('listitem').filter({ hasText: p });
        await item.getByText(how, { exact: true }).waitFor();
      }
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.close();
  });

  it('replays the topology from before the rollout to now, one step a second, from the what-changed view', async () => {
    const from = new Date(rollout.before).toISOString();
    const page = await open(`/timeline/between?namespace=${web.ns.name}&from=${encodeURIComponent(from)}`);
    await page.getByRole('link', { name: 'Replay on the topology' }).click();
    await page.waitForURL(/\/topology\?.*replayFrom=/);
    for (const p of rollout.oldPods) await pod(page, p).waitFor();
    const replay = page.getByRole('region', { name: 'Replay' });
    await replay.getByText(/^Step 1 of \d+/).waitFor();
    await replay.getByRole('button', { name: 'Play', exact: true }).click();
    // At most 20 steps, a second each: the last is the end of the span, after the rollout.
    await replay.getByRole('button', { name: 'Play again' }).waitFor({ timeout: 30_000 });
    const [, step, steps] =
      /Step (\d+) of (\d+)/.exec((await replay.getByRole('status').textContent()) ?? '') ?? [];
    expect(Number(step)).toBeGreaterThan(2);
    expect(step).toBe(steps);
    for (const p of rollout.newPods) await pod(page, p).waitFor();
    for (const p of rollout.oldPods) expect(await pod(page, p).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.close();
  }, 60_000);
});
