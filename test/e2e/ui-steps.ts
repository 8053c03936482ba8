import { seriousA11yViolations, waitUntil } from '@binnacle/testkit';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * On an object's page (already open): open its YAML in the editor, check it reads as edited (no managedFields), put
 * `edit` of its text in its place and ask for the review (the server-side-apply dry run). Answers the YAML card.
 */
export async function editYaml(
  page: Page,
  object: { kind: string; name: string },
  edit: (text: string) => string,
): Promise<Locator> {
  const card = page.getByRole('region', { name: 'YAML' });
  await card.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('textbox', { name: `YAML of ${object.kind} ${object.name}` });
  await editor.waitFor();
  // biome-ignore lint/performance/useDomNodeTextContent: CodeMirror renders lines as blocks; only the rendered text has the line breaks.
  const text = (await editor.innerText()).replaceAll('\u00a0', ' ');
  expect(text).not.toContain('managedFields');
  await editor.press('ControlOrMeta+a');
  await page.keyboard.insertText(edit(text));
  await card.getByRole('button', { name: 'Review changes' }).click();
  return card;
}

/**
 * On an object's page (already open): edit its YAML in the editor, replacing `from` by `to`, review the
 * server-side-apply dry run's diff, apply it, then follow the link to the timeline (a client-side navigation,
 * no reload) and wait for the update there. Shared by the tests against the agent and through the hub.
 */
export async function editYamlAndFollowToTimeline(
  page: Page,
  object: { kind: string; name: string },
  change: { from: string; to: string },
  afterReview?: (page: Page) => Promise<unknown>,
): Promise<void> {
  const card = await editYaml(page, object, (text) => {
    expect(text).toContain(change.from);
    return text.replace(change.from, change.to);
  });
  const after = page.getByRole('textbox', { name: 'The object after the apply' });
  await after.waitFor();
  const now = page.getByRole('textbox', { name: 'The object now' });
  // biome-ignore lint/performance/useDomNodeTextContent: as above, the lines of the diff.
  const [before, proposed] = await Promise.all([now.innerText(), after.innerText()]);
  expect(proposed).toContain(change.to);
  expect(before).toContain(change.from);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await afterReview?.(page);
  await card.getByRole('button', { name: 'Apply' }).click();
  await card.getByRole('status').filter({ hasText: 'Applied.' }).waitFor();
  await card.getByRole('link', { name: 'See the change on the timeline' }).click();
  await page.waitForURL(/\/timeline\?/);
  await page
    .getByRole('list', { name: 'Changes' })
    .getByRole('button')
    .filter({ hasText: 'update' })
    .filter({ hasText: object.name })
    .first()
    .waitFor();
}

/**
 * From any page: Ctrl-K, type `postgres`, move the highlight to the pod postgres-0 with the arrows and open it with
 * Enter. Other objects may match too and the list fills in as its queries answer, so the pod's place varies: each
 * step reads where the highlight and the pod are, presses one arrow toward it, and waits for the highlight to move
 * (reading right after a key press can see the list before React has redrawn it).
 */
export async function openPodWithPalette(page: Page): Promise<void> {
  await highlightPodInPalette(page);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Pod demo-data/postgres-0' }).waitFor();
}

/** The text of the palette's option that holds the highlight. */
export const highlightedOption = async (page: Page): Promise<string> =>
  (await page
    .getByRole('dialog', { name: 'Go to a kind or object' })
    .getByRole('option', { selected: true })
    .textContent()) ?? '';

/** Opens the palette, searches `postgres` and moves the highlight to postgres-0 with the arrow keys. */
export async function highlightPodInPalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Go to a kind or object' });
  const combobox = palette.getByRole('combobox');
  await combobox.fill('postgres');
  const podName = /postgres-0.*Pod · demo-data/;
  await palette.getByRole('option', { name: podName }).waitFor();
  // An option under the resting pointer takes the highlight (as hovering does): keep the pointer off the list.
  await page.mouse.move(0, 0);
  const read = () =>
    palette
      .getByRole('option')
      .evaluateAll((all) => all.map((o) => [o.textContent ?? '', o.getAttribute('aria-selected')] as const));
  for (let step = 0; ; step += 1) {
    const options = await read();
    const target = options.findIndex(([text]) => podName.test(text));
    const active = options.findIndex(([, selected]) => selected === 'true');
    // A late answer can still add options above the pod and move the highlight off it: settled means the same
    // list a moment later (other tests' objects named postgres, such as CloudNativePG Clusters, answer late).
    expect(step, `the highlight reaching postgres-0 in ${JSON.stringify(options)}`).toBeLessThan(30);
    if (target >= 0 && target === active) {
      await page.waitForTimeout(300);
      if (JSON.stringify(await read()) === JSON.stringify(options)) break;
      continue;
    }
    const before = await combobox.getAttribute('aria-activedescendant');
    await page.keyboard.press(target > active ? 'ArrowDown' : 'ArrowUp');
    await waitUntil(
      'the highlight to move',
      async () => (await combobox.getAttribute('aria-activedescendant')) !== before,
      { timeoutMs: 5_000, intervalMs: 20 },
    );
  }
}

/**
 * On postgres-0's page (or in the dock tab `within`): its log shows lines, and a newer one arrives without a reload
 * (pod-sim writes one a second). The log is read in whichever view it is in: as text (`seq=12`), or as the
 * structured table, whose `seq` column holds the number.
 */
export async function seeNewLogLine(page: Page, within: Page | Locator = page): Promise<void> {
  const log = within.getByLabel('Log lines');
  const seqs = () =>
    log.evaluate((element) => {
      const table = element.querySelector('table');
      if (!table) return [...(element.textContent ?? '').matchAll(/seq=(\d+)/g)].map((m) => Number(m[1]));
      const column = [...table.querySelectorAll('th')].findIndex((th) => th.textContent === 'seq');
      return [...table.querySelectorAll('tbody tr')]
        .map((row) => Number(row.children[column]?.textContent || Number.NaN))
        .filter(Number.isFinite);
    });
  await expect.poll(async () => (await seqs()).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const before = Math.max(...(await seqs()));
  await expect.poll(async () => Math.max(...(await seqs())), { timeout: 10_000 }).toBeGreaterThan(before);
}

/**
 * On a pod's page (or the local terminal's, whose card is named otherwise): open a shell, type `echo hi-from-binnacle`, and read the line it prints. A shell starting up
 * may drop what was typed before it was ready (kwok runs it as a local process), so the command is typed again
 * until the output line shows; a session that never answers is closed and a new one opened (at most three).
 */
export async function echoInTerminal(page: Page, card = 'Terminal'): Promise<void> {
  const failures: string[] = [];
  for (let session = 1; session <= 3; session += 1) {
    await page.getByRole('button', { name: 'Open a shell' }).click();
    const answered = await typeEcho(page, card).catch((error: Error) => {
      failures.push(`session ${session}: ${error.message}`);
      return false;
    });
    if (answered) return;
    await page.getByRole('button', { name: 'Close the shell' }).click();
  }
  throw new Error(`no shell printed hi-from-binnacle:\n${failures.join('\n')}`);
}

/**
 * In the region `card` holding a connected shell: type `echo <word>` until the line it prints shows (a shell
 * starting up may drop what was typed before it was ready).
 */
export async function typeEcho(page: Page, card: string, word = 'hi-from-binnacle'): Promise<boolean> {
  const around = page.getByRole('region', { name: card });
  const terminal = around.getByRole('region', { name: 'Shell' });
  // The terminal's own status line (the page header has a "Connected" badge of its own).
  const status = around.getByRole('status');
  await waitUntil(
    'the shell to connect',
    async () => {
      const text = (await status.textContent()) ?? '';
      if (text !== 'Connected' && text !== 'Connecting…') throw new Error(`the shell says: ${text}`);
      return text === 'Connected';
    },
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  await terminal.click();
  const lines = async () =>
    (await terminal.locator('.xterm-rows > div').allTextContents()).map((l) => l.trim());
  // The echoed command line holds the text too; the output is a line alone. Under CI's heaviest load (other
  // suites opening hundreds of exec sessions) a simulated container's shell has taken over 15 s to answer.
  await waitUntil(
    `echo ${word} to print ${word} in the terminal`,
    async () => {
      const shown = await lines();
      if (shown.includes(word)) return true;
      const said = await status.textContent();
      if (said !== 'Connected')
        throw new Error(`the shell says: ${said}; it shows: ${shown.filter(Boolean).join(' | ')}`);
      await page.keyboard.type(`echo ${word}`);
      await page.keyboard.press('Enter');
      return false;
    },
    { timeoutMs: 30_000, intervalMs: 1500 },
  ).catch(async (error: Error) => {
    const shown = (await lines()).filter(Boolean);
    throw new Error(`${error.message}; the terminal shows: ${shown.join(' | ') || 'nothing'}`);
  });
  return true;
}

/** On /topology for demo-shop: the Service → Deployment edge and the Deployment → Pod edges are drawn. */
export async function seeShopEdges(page: Page): Promise<void> {
  const graph = page.getByRole('region', { name: 'Topology graph' });
  await graph
    .locator('[aria-label="Service storefront exposes Deployment storefront"]')
    .waitFor({ state: 'attached' });
  // The edges arrive with the layout of the namespace's graph; a view that was open before may still be drawn.
  const managed = graph.locator('[aria-label^="Deployment storefront manages Pod storefront-"]');
  await managed.nth(2).waitFor({ state: 'attached' });
  expect(await managed.count()).toBe(3);
}
