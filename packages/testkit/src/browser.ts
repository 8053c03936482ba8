import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { repoRoot } from './cluster/paths.ts';

const require = createRequire(import.meta.url);

/** Debian's Chromium (the bootstrap installs it for `npm test`); a missing browser fails the test, never skips it. */
export function chromiumPath(): string {
  const path = process.env.BINNACLE_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(
      `no Chromium at ${path}: install the Debian package chromium (sh scripts/bootstrap.sh test)`,
    );
  }
  return path;
}

/** Headless Chromium with nothing that reaches beyond loopback (no updates, sync or background networking). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-default-apps',
      '--no-first-run',
    ],
  });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page; answers the serious and critical violations (the ones a page may not have). */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  const source = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: source });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map((n) => ({ target: n.target })),
    }));
}

/** A page of its own (fresh cookies) at the size the docs' screenshots have, opened at `url`. */
export async function openPage(
  browser: Browser,
  url: string,
  colorScheme: 'light' | 'dark' = 'light',
  extraHTTPHeaders?: Record<string, string>,
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    colorScheme,
    ...(extraHTTPHeaders ? { extraHTTPHeaders } : {}),
  });
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

/** A screenshot for the docs: docs/images/<name>.png, taken by the browser tests so it shows the real page. */
export async function docsScreenshot(page: Page, name: string): Promise<string> {
  const path = join(repoRoot, 'docs/images', `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}
