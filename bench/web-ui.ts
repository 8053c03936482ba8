import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { launchBrowser, repoRoot } from '@binnacle/testkit';
import type { Page } from 'playwright-core';
import { createPods, loadCluster } from './load.ts';
import type { BenchResult } from './run.ts';
import { syncedAgent } from './synced-agent.ts';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const dist = join(repoRoot, 'packages/web/dist');

/** What a first visit downloads before anything is lazy: the entry script, its preloads and the CSS, gzipped. */
async function initialBytes(): Promise<{ js: number; css: number }> {
  const html = await readFile(join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.(js|css))"/g)];
  let js = 0;
  let css = 0;
  for (const [, file = '', type] of files) {
    const size = gzipSync(await readFile(join(dist, file))).byteLength;
    if (type === 'js') js += size;
    else css += size;
  }
  return { js, css };
}

/**
 * Records every frame's duration from requestAnimationFrame while `act` runs in the page: a frame over 50 ms
 * is one a person sees stutter.
 */
async function frames(
  page: Page,
  act: () => Promise<void>,
): Promise<{ frames: number; over50: number; worst: number }> {
  // In-page code as text: it runs in Chromium, where the DOM exists, and the bench compiles without DOM types.
  await page.evaluate(`{
    const durations = [];
    let last = performance.now();
    globalThis.benchFrames = durations;
    const tick = (now) => { durations.push(now - last); last = now; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  }`);
  await act();
  const durations = await page.evaluate(
    () => (globalThis as unknown as { benchFrames: number[] }).benchFrames,
  );
  return {
    frames: durations.length,
    over50: durations.filter((d) => d > 50).length,
    worst: Math.round(Math.max(...durations)),
  };
}

/** Scrolls the pods table from top to bottom, a screenful per frame, as a person dragging the scrollbar would. */
async function scrollWholeTable(page: Page): Promise<number> {
  return page.evaluate(`(async () => {
    const region = document.querySelector('[aria-label="Pod objects"]');
    let steps = 0;
    while (region.scrollTop + region.clientHeight < region.scrollHeight && steps < 5000) {
      region.scrollTop += region.clientHeight;
      steps += 1;
      await new Promise(requestAnimationFrame);
    }
    return steps;
  })()`) as Promise<number>;
}

/** Time from navigation until `ready` holds, in ms. */
async function timeTo(page: Page, url: string, ready: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await page.goto(url);
  await ready();
  return Math.round(performance.now() - started);
}

/**
 * The web UI at 10 000 pods, in Debian's Chromium against a real agent: time to the first row of the pods table,
 * frames over 50 ms while scrolling the whole table, the topology's render time for the sample namespace and for
 * a 2 000-object namespace (1 900 pods behind 100 Services) and frames over 50 ms while zooming and panning it,
 * and the gzipped size of what the first page load fetches.
 */
export async function webUi(args: string[]): Promise<BenchResult> {
  const pods = Number(args.find((a) => a.startsWith('--pods='))?.slice(7) ?? 10_000);
  const bundle = await initialBytes();
  return loadCluster(pods + 1900, async (state, client) => {
    log(`creating ${pods} pods, then 1900 pods behind 100 Services`);
    await createPods(client, state.nodes, pods);
    await createPods(client, state.nodes, 1900, 'bench-topology');
    for (let i = 0; i < 100; i += 1)
      await client.request({
        method: 'POST',
        path: '/api/v1/namespaces/bench-topology/services',
        body: {
          metadata: { name: `svc-${i}` },
          spec: { selector: { app: `load-${i}` }, ports: [{ port: 80 }] },
        },
      });
    const agent = await syncedAgent(state.kubeconfigs.admin);
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      const firstRow = await timeTo(page, `${agent.url}/resources/pods?namespace=bench-load`, () =>
        page
          .getByRole('link', { name: /^load-/ })
          .first()
          .waitFor({ timeout: 120_000 }),
      );
      let steps = 0;
      const scroll = await frames(page, async () => {
        steps = await scrollWholeTable(page);
      });
      log(`pods table: first row ${firstRow} ms, ${steps} screens scrolled`);
      const graph = page.getByRole('region', { name: 'Topology graph' });
      const sample = await timeTo(page, `${agent.url}/topology?namespace=demo-shop`, () =>
        graph
          .locator('[aria-label^="Service storefront exposes"]')
          .first()
          .waitFor({ state: 'attached', timeout: 60_000 }),
      );
      const big = await timeTo(page, `${agent.url}/topology?namespace=bench-topology&group=none`, () =>
        graph.locator('.react-flow__node').first().waitFor({ timeout: 120_000 }),
      );
      const objects = (await page.getByRole('status').filter({ hasText: 'objects' }).textContent()) ?? '';
      const box = await graph.boundingBox();
      // Bounded: a renderer that cannot keep up would otherwise hold the mouse events, and the bench, forever.
      const panned = frames(page, async () => {
        if (!box) return;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        for (let i = 0; i < 10; i += 1) await page.mouse.wheel(0, -200);
        await page.mouse.down();
        for (let i = 0; i < 30; i += 1)
          await page.mouse.move(box.x + box.width / 2 - i * 20, box.y + box.height / 2 - i * 10);
        await page.mouse.up();
        for (let i = 0; i < 10; i += 1) await page.mouse.wheel(0, 300);
      });
      const pan = await Promise.race([
        panned,
        sleep(120_000).then(() => ({ frames: 0, over50: -1, worst: -1 })),
      ]);
      log(`topology: sample ${sample} ms, ${objects.trim()} in ${big} ms`);
      const data = {
        pods,
        initialGzip: bundle,
        podsTable: { firstRowMs: firstRow, screens: steps, ...scroll },
        topology: { sampleMs: sample, bigMs: big, bigObjects: objects.trim(), panZoom: pan },
      };
      return {
        name: 'web-ui',
        summary:
          `${pods} pods in Chromium: first row of the pods table ${firstRow} ms; scrolling all of it (${steps} screens) ${scroll.over50} of ${scroll.frames} frames over 50 ms (worst ${scroll.worst} ms); ` +
          `topology of demo-shop drawn in ${sample} ms, of 2 000 objects (${objects.trim()}) in ${big} ms, ${pan.over50 < 0 ? 'zoom and pan did not finish within 120 s' : `zoom and pan ${pan.over50} of ${pan.frames} frames over 50 ms (worst ${pan.worst} ms)`}; ` +
          `initial download ${(bundle.js / 1024).toFixed(1)} KB JS + ${(bundle.css / 1024).toFixed(1)} KB CSS gzipped (budget 500 KB JS)`,
        data,
      };
    } finally {
      await browser.close();
      await agent.close();
    }
  });
}
