import { seriousA11yViolations } from '@binnacle/testkit';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

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
  const card = page.getByRole('region', { name: 'YAML' });
  await card.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('textbox', { name: `YAML of ${object.kind} ${object.name}` });
  await editor.waitFor();
  // biome-ignore lint/performance/useDomNodeTextContent: CodeMirror renders lines as blocks; only the rendered text has the line breaks.
  const text = (await editor.innerText()).replaceAll('\u00a0', ' ');
  expect(text).toContain(change.from);
  expect(text).not.toContain('managedFields');
  await editor.press('ControlOrMeta+a');
  await page.keyboard.insertText(text.replace(change.from, change.to));
  await card.getByRole('button', { name: 'Review changes' }).click();
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
