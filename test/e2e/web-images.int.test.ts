import { readFile } from 'node:fs/promises';
import {
  anonymousRegistry,
  createPullingPod,
  createPullSecret,
  repositoryName,
} from '@binnacle/agent/testing';
import {
  docsScreenshot,
  layer,
  openPage,
  pushImage,
  registryLogin,
  seriousA11yViolations,
  startRegistry,
  type TestRegistry,
} from '@binnacle/testkit';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';

// The image browser (docs/images.md) in Chromium: an image pushed to the control plane's registry, used by a pod
// that never runs (its node is simulated), opened from the pod's page.
/** The largest file the agent serves here: the certificates bundle is above it, the build log below. */
const fileCap = 300_000;
const web = agentInBrowser('images-web', { config: { imageFileMaxBytes: fileCap } });
const registry = anonymousRegistry();
const image = `${registry.host}/${repositoryName('shop')}:1.4.0`;
const podName = 'shop-7d9f';

const osRelease = 'NAME="Binnacle Linux"\nID=binnacle\nVERSION_ID=3.20\nPRETTY_NAME="Binnacle Linux v3.20"\n';
/** Bytes no text decoder takes: an ELF header, then a pattern with NULs. */
const busybox = Buffer.concat([
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]),
  Buffer.from(Array.from({ length: 120_000 }, (_, i) => (i * 31) % 251)),
]);
const certificates = Array.from(
  { length: 4000 },
  (_, i) =>
    `# CA ${i}\n-----BEGIN CERTIFICATE-----\nMIIB${String(i).padStart(8, '0')}QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=\n`,
).join('');

/** Text longer than the 256 KiB shown in place, shorter than the cap. */
const buildLog = Array.from(
  { length: 9000 },
  (_, i) => `step ${String(i).padStart(5, '0')}: compiled module ok\n`,
).join('');

beforeAll(async () => {
  await pushImage(
    registry,
    image.slice(registry.host.length + 1, -':1.4.0'.length),
    '1.4.0',
    [
      layer([
        { path: 'etc/os-release', content: osRelease },
        {
          path: 'etc/passwd',
          content: 'root:x:0:0:root:/root:/bin/sh\napp:x:65532:65532::/srv:/sbin/nologin\n',
        },
        { path: 'bin/busybox', content: busybox, mode: 0o755 },
        { path: 'bin/sh', type: 'symlink', linkTarget: 'busybox', mode: 0o777 },
        { path: 'lib/ld-musl-x86_64.so.1', content: busybox.subarray(0, 60_000), mode: 0o755 },
        {
          path: 'usr/share/doc/busybox/README',
          content: 'BusyBox combines tiny versions of many UNIX utilities.\n',
        },
      ]),
      layer([{ path: 'etc/ssl/certs/ca-certificates.crt', content: certificates }]),
      layer([
        {
          path: 'srv/server.js',
          content: "require('http').createServer((q, s) => s.end('ok')).listen(8080);\n",
        },
        { path: 'srv/package.json', content: '{ "name": "shop", "version": "1.4.0" }\n' },
        { path: 'srv/public/index.html', content: '<!doctype html><title>Shop</title>\n' },
      ]),
      layer([
        { path: 'etc/shop/config.yaml', content: 'listen: 8080\ncatalog: https://catalog.shop.svc\n' },
        { path: 'var/log/build.log', content: buildLog },
      ]),
    ],
    undefined,
    {
      created: '2026-11-20T09:30:00Z',
      config: {
        Entrypoint: ['/bin/sh', '-c'],
        Cmd: ['exec /srv/server.js --port 8080'],
        Env: ['PATH=/usr/local/bin:/usr/bin:/bin', 'NODE_ENV=production'],
        User: '65532',
        WorkingDir: '/srv',
        ExposedPorts: { '8080/tcp': {} },
        Labels: { 'org.opencontainers.image.version': '1.4.0', 'org.opencontainers.image.title': 'shop' },
      },
      history: [
        { created_by: '/bin/sh -c #(nop) ADD file:3f1c0a9e in / ' },
        { created_by: '/bin/sh -c #(nop)  CMD ["/bin/sh"]', empty_layer: true },
        { created_by: 'RUN /bin/sh -c apk add --no-cache ca-certificates # buildkit' },
        { created_by: 'ENV NODE_ENV=production', empty_layer: true },
        { created_by: 'COPY app/ /srv/ # buildkit' },
        { created_by: 'COPY config.yaml /etc/shop/config.yaml # buildkit' },
        { created_by: 'USER 65532', empty_layer: true },
      ],
    },
  );
  await createPullingPod(web.ns.name, podName, image, []);
}, 60_000);

const open = (path: string, scheme?: 'dark') => openPage(web.browser, `${web.agent.url}${path}`, scheme);
/** The entries the tree shows, by their buttons' names (`etc, directory`), top down. */
const entries = (tree: Locator) =>
  tree
    .locator('tbody tr[data-row] td:first-child button')
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));

/** Downloads what the link answers and reads the bytes the browser saved. */
async function download(page: Page, link: Locator): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return readFile(await file.path());
}

describe('the image browser', () => {
  it("opens from a pod's page, reads a text file in place, downloads files byte for byte and filters by name", async () => {
    const page = await open(`/resources/pods/${web.ns.name}/${podName}`);
    await page.getByRole('link', { name: image }).click();
    await page.waitForURL(/\/images\?/);
    const url = new URL(page.url()).searchParams;
    expect([url.get('image'), url.get('namespace'), url.get('pod')]).toEqual([image, web.ns.name, podName]);

    const tree = page.getByRole('region', { name: `Filesystem of ${image}` });
    await tree.getByRole('button', { name: 'etc, directory' }).click();
    await tree.getByRole('button', { name: 'os-release, file: show' }).click();
    const text = page.getByRole('region', { name: 'File /etc/os-release' });
    await text.locator('pre').getByText('PRETTY_NAME').waitFor();
    expect(await text.locator('pre').textContent()).toBe(osRelease);
    await page.getByText('linux/amd64').waitFor();
    await tree.getByRole('button', { name: 'srv, directory' }).click();
    await tree.getByRole('button', { name: 'server.js, file: show' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'image-browser');
    // The keyboard opens and closes a directory too: → and ← on it.
    const usr = tree.getByRole('button', { name: 'usr, directory' });
    await usr.press('ArrowRight');
    await tree.getByRole('button', { name: 'share, directory' }).waitFor();
    await usr.press('ArrowLeft');
    await tree.getByRole('button', { name: 'share, directory' }).waitFor({ state: 'detached' });
    expect((await download(page, text.getByRole('link', { name: 'Download' }))).toString()).toBe(osRelease);

    await tree.getByRole('button', { name: 'bin, directory' }).click();
    await tree.getByRole('button', { name: 'busybox, file: show' }).click();
    const binary = page.getByRole('region', { name: 'File /bin/busybox' });
    await binary.getByText('Binary file: not shown.').waitFor();
    expect((await download(page, binary.getByRole('link', { name: 'Download' }))).equals(busybox)).toBe(true);

    const filter = page.getByRole('textbox', { name: 'Filter by path or name' });
    await filter.fill('server');
    await filter.press('Enter');
    await page.waitForURL(/[?&]q=server/);
    await tree.getByRole('button', { name: 'server.js, file: show' }).waitFor();
    expect(await entries(tree)).toEqual(['srv, directory', 'server.js, file: show']);

    // Largest first: /etc (its certificates) before /bin, which leads by name.
    await page.getByRole('button', { name: 'Show the whole tree' }).click();
    await page.getByRole('checkbox', { name: 'Largest first' }).check();
    await page.waitForURL(/[?&]order=size/);
    expect((await entries(tree))[0]).toBe('etc, directory');
    await page.close();
  });

  it('shows the layers with the step that made each and the run settings of the config', async () => {
    const page = await open(`/images?image=${encodeURIComponent(image)}&tab=layers`);
    const layers = page.getByRole('table', { name: 'Layers' });
    await layers.getByRole('row').filter({ hasText: 'COPY app/ /srv/ # buildkit' }).waitFor();
    expect(await layers.getByRole('row').nth(3).textContent()).toContain('COPY app/ /srv/');
    await page.getByRole('tab', { name: 'Config' }).click();
    await page.getByText('NODE_ENV=production').waitFor();
    await page.getByText('8080/tcp').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.close();
  });

  it('says what the agent answered for an image that is not there, and opens a file named in the URL in the dark theme', async () => {
    const missing = `${registry.host}/${repositoryName('absent')}:1`;
    const page = await open(`/images?image=${encodeURIComponent(missing)}`, 'dark');
    const alert = page.getByRole('alert');
    await alert.getByText('code: not_found').waitFor();
    expect(await alert.textContent()).toContain(`Could not load ${missing}`);
    await page.goto(`${web.agent.url}/images?image=${encodeURIComponent(image)}&path=/etc/shop/config.yaml`);
    await page
      .getByRole('region', { name: 'File /etc/shop/config.yaml' })
      .locator('pre')
      .getByText('listen: 8080')
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.close();
  });
});

describe('files too large to show or to serve', () => {
  it('shows the first 256 KiB of a long text, and the 413 of a file over the cap', async () => {
    expect(buildLog.length).toBeGreaterThan(256 * 1024);
    expect(certificates.length).toBeGreaterThan(fileCap);
    const at = (path: string) => `/images?image=${encodeURIComponent(image)}&path=${path}`;
    const page = await open(at('/var/log/build.log'));
    const log = page.getByRole('region', { name: 'File /var/log/build.log' });
    await log.getByText('The first 256 KiB shown; download the file for the rest.').waitFor();
    expect(await log.locator('pre').textContent()).toBe(buildLog.slice(0, 256 * 1024));

    await page.goto(`${web.agent.url}${at('/etc/ssl/certs/ca-certificates.crt')}`);
    const alert = page
      .getByRole('region', { name: 'File /etc/ssl/certs/ca-certificates.crt' })
      .getByRole('alert');
    await alert.getByText('code: image_file_too_large').waitFor();
    await page.close();
  });
});

describe('an image of a registry that wants a login', () => {
  let registry: TestRegistry;
  beforeAll(async () => {
    registry = await startRegistry();
  });
  afterAll(() => registry?.stop());

  it('shows the 401 with what to do, and reads the image with a pull secret named on the page', async () => {
    const repository = repositoryName('private');
    const image = `${registry.host}/${repository}:1`;
    await pushImage(registry, repository, '1', [
      layer([{ path: 'private.txt', content: 'only with a login' }]),
    ]);
    await createPullSecret(web.ns.name, 'regcred', registry.host, registryLogin);
    const page = await open(`/images?namespace=${web.ns.name}&image=${encodeURIComponent(image)}`);
    const alert = page.getByRole('alert');
    await alert.getByText('code: registry_unauthorized').waitFor();
    expect(await alert.textContent()).toContain(registry.host);
    await page.getByText('open the image from a pod that pulls it').waitFor();

    await page.getByRole('textbox', { name: 'Pull secrets' }).fill('regcred');
    await page.getByRole('button', { name: 'Open' }).click();
    await page.waitForURL(/[?&]pullSecrets=regcred/);
    await page.getByText(`basic auth, secret ${web.ns.name}/regcred`).waitFor();
    await page
      .getByRole('region', { name: `Filesystem of ${image}` })
      .getByRole('button', { name: 'private.txt, file: show' })
      .click();
    await page.getByRole('region', { name: 'File /private.txt' }).getByText('only with a login').waitFor();
    await page.close();
  });
});
