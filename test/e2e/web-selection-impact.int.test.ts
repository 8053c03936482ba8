import { docsScreenshot, openPage, seriousA11yViolations } from '@binnacle/testkit';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';
import { editYaml } from './ui-steps.ts';

/**
 * The YAML editor's Selection impact (docs/web.md, docs/adr/0124-selection-impact.md) in Chromium, on the seeded
 * demo-shop: a Service's selector pointed at checkout (a dry run the API server accepts: the tab beside the diff),
 * and storefront's pod template relabelled (refused, since its selector is immutable: the impact under the
 * refusal). Neither edit is applied.
 */
const web = agentInBrowser('selection-web');

/** Replaces the first `from` after `after` (from the start of the text without one). */
const replacing =
  (from: string, to: string, after?: string) =>
  (text: string): string => {
    const start = after === undefined ? 0 : text.indexOf(after);
    expect(start).toBeGreaterThanOrEqual(0);
    const at = text.indexOf(from, start);
    expect(at).toBeGreaterThan(0);
    return `${text.slice(0, at)}${to}${text.slice(at + from.length)}`;
  };

const row = (region: Locator, kind: string, name: string) =>
  region
    .getByRole('row')
    .filter({ hasText: kind })
    .filter({ has: region.page().getByRole('link', { name }) });

describe('Selection impact in the YAML editor', () => {
  it("shows what a Service's new selector gains and loses, beside the dry run's diff", async () => {
    const page = await openPage(web.browser, `${web.agent.url}/resources/services/demo-shop/storefront`);
    const card = await editYaml(
      page,
      { kind: 'Service', name: 'storefront' },
      replacing('app.kubernetes.io/name: storefront', 'app.kubernetes.io/name: checkout'),
    );
    await page.getByRole('textbox', { name: 'The object after the apply' }).waitFor();
    await card.getByRole('tab', { name: 'Selection impact' }).click();
    const table = card.getByRole('table', { name: 'Objects that gain or lose pods' });
    const service = row(table, 'Service', 'demo-shop/storefront');
    await service.waitFor();
    expect(await service.textContent()).toMatch(
      /endpoints\s*3 → 2\s*gains 2: checkout-.*loses 3: storefront-/s,
    );
    expect(await table.getByRole('row').count()).toBe(2);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'selection-impact');
    // The diff is one arrow key away, and nothing was applied.
    await card.getByRole('tab', { name: 'Selection impact' }).press('ArrowLeft');
    await page.getByRole('textbox', { name: 'The object after the apply' }).waitFor();
    await card.getByRole('button', { name: 'Back to editing' }).click();
    await card.getByRole('button', { name: 'Cancel' }).click();
    await page.close();
  });

  it("lists the Service, PDB and NetworkPolicy that lose storefront's pods when its template's app label changes", async () => {
    const page = await openPage(web.browser, `${web.agent.url}/resources/deployments/demo-shop/storefront`);
    const card = await editYaml(
      page,
      { kind: 'Deployment', name: 'storefront' },
      replacing('app.kubernetes.io/name: storefront', 'app.kubernetes.io/name: shopfront', '  template:'),
    );
    await card.getByRole('alert').filter({ hasText: 'selector' }).waitFor();
    await card.getByRole('button', { name: 'Selection impact of this edit' }).click();
    const impact = card.getByRole('region', { name: 'Selection impact' });
    await impact.getByRole('note').filter({ hasText: 'The API server refuses this change' }).waitFor();
    const table = impact.getByRole('table', { name: 'Objects that gain or lose pods' });
    for (const [kind, name, words] of [
      ['Service', 'demo-shop/storefront', 'endpoints'],
      ['PodDisruptionBudget', 'demo-shop/storefront', 'pods it protects'],
      ['NetworkPolicy', 'demo-shop/checkout-from-storefront', 'pods it lets in'],
    ] as const) {
      const line = row(table, kind, name);
      await line.waitFor();
      expect(await line.textContent()).toMatch(
        new RegExp(`${words}.*3 → 0.*none left.*loses 3: storefront-`, 's'),
      );
    }
    await impact.getByText('Relabels 3 pods').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    // The refusal's toast would cover the table in the picture.
    await page
      .getByRole('region', { name: 'Notifications' })
      .getByRole('button', { name: 'Dismiss' })
      .click();
    await impact.getByRole('heading', { name: 'Selection impact' }).evaluate((e) => e.scrollIntoView());
    await docsScreenshot(page, 'selection-impact-refused');
    await page.close();
  });
});
