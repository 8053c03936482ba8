import { docsScreenshot, openPage, seriousA11yViolations, testCluster } from '@binnacle/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentInBrowser } from './browser-suite.ts';
import {
  certificateChain,
  EcosystemObjects,
  gatewayChain,
  knativeBesideCoreService,
  scaledObjectChain,
} from './ecosystem-objects.ts';

// The three chains of docs/topology.md (Ecosystem objects), each in a namespace of its own, against the projects'
// real CRDs: drawn by the topology page, each node a link to its object's page.
const cluster = testCluster();
const objects = new EcosystemObjects(cluster.kubeConfig('admin'));
const web = agentInBrowser('eco-gateway');
let certificates: { name: string; remove: () => Promise<void> };
let scaling: { name: string; remove: () => Promise<void> };
let serving: { name: string; remove: () => Promise<void> };

beforeAll(async () => {
  [certificates, scaling, serving] = await Promise.all([
    cluster.namespace('eco-cert'),
    cluster.namespace('eco-keda'),
    cluster.namespace('eco-knative'),
  ]);
  await Promise.all([
    gatewayChain(objects, web.ns.name),
    certificateChain(objects, certificates.name),
    scaledObjectChain(objects, scaling.name),
    knativeBesideCoreService(objects, serving.name),
  ]);
});

afterAll(async () => {
  await objects.removeClusterScoped();
  await Promise.all([certificates?.remove(), scaling?.remove(), serving?.remove()]);
});

/** The namespace's topology once these node links are drawn. */
async function graphOf(namespace: string, links: string[]): Promise<Page> {
  const page = await openPage(web.browser, `${web.agent.url}/topology?namespace=${namespace}`);
  const graph = page.getByRole('region', { name: 'Topology graph' });
  for (const name of links) await graph.getByRole('link', { name, exact: true }).waitFor();
  await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  return page;
}

describe('ecosystem objects in the topology page', () => {
  it('draws Gateway → HTTPRoute → Service, the backend that does not exist a flagged placeholder', async () => {
    const ns = web.ns.name;
    const page = await graphOf(ns, [
      `GatewayClass ${ns}-envoy`,
      'Gateway edge',
      'HTTPRoute shop',
      'Service storefront',
      'Deployment storefront',
    ]);
    const graph = page.getByRole('region', { name: 'Topology graph' });
    // The missing Service: drawn, badged, opening nothing.
    await graph.getByText('missing', { exact: true }).waitFor();
    expect(await graph.getByRole('link', { name: 'Service search' }).count()).toBe(0);
    expect(await graph.getByText('search', { exact: true }).count()).toBe(1);
    const broken = graph.getByText('broken ref', { exact: true });
    expect(await broken.getAttribute('title')).toBe(`Service ${ns}/search does not exist`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'ecosystem-gateway');
    await graph.getByRole('link', { name: `GatewayClass ${ns}-envoy` }).click();
    await page.getByRole('heading', { name: `GatewayClass ${ns}-envoy` }).waitFor();
    await page.context().close();
  });

  it('draws the Certificate chain: ClusterIssuer, Secret, CertificateRequest; a missing Issuer flagged', async () => {
    const ns = certificates.name;
    const page = await graphOf(ns, [
      'Certificate storefront-tls',
      `ClusterIssuer ${ns}-ca`,
      'Secret storefront-tls',
      'CertificateRequest storefront-tls-1',
      'Certificate admin-tls',
    ]);
    const graph = page.getByRole('region', { name: 'Topology graph' });
    await graph.getByText('internal-ca', { exact: true }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'ecosystem-certificate');
    await graph.getByRole('link', { name: 'Certificate storefront-tls' }).click();
    await page.getByRole('heading', { name: `Certificate ${ns}/storefront-tls` }).waitFor();
    await page
      .getByRole('list', { name: 'Issuers' })
      .getByRole('link', { name: `${ns}-ca` })
      .waitFor();
    await page
      .getByRole('list', { name: 'Owns' })
      .getByRole('link', { name: `${ns}/storefront-tls-1` })
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('draws a ScaledObject with its Deployment, the HPA KEDA made and its TriggerAuthentication', async () => {
    const ns = scaling.name;
    const page = await graphOf(ns, [
      'ScaledObject worker',
      'Deployment worker',
      'HorizontalPodAutoscaler keda-hpa-worker',
      'TriggerAuthentication worker-auth',
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'ecosystem-scaledobject');
    const graph = page.getByRole('region', { name: 'Topology graph' });
    await graph.getByRole('link', { name: 'ScaledObject worker' }).click();
    await page.getByRole('heading', { name: `ScaledObject ${ns}/worker` }).waitFor();
    await page
      .getByRole('list', { name: 'Owns' })
      .getByRole('link', { name: `${ns}/keda-hpa-worker` })
      .waitFor();
    await page.context().close();
  });

  it("filters Knative's Service apart from the core Service, the kind list saying whose each is", async () => {
    const ns = serving.name;
    const page = await graphOf(ns, ['Deployment hello']);
    const graph = page.getByRole('region', { name: 'Topology graph' });
    const services = graph.getByRole('link', { name: 'Service hello', exact: true });
    await expect.poll(() => services.count()).toBe(2);
    const knative = page.getByRole('checkbox', { name: 'Service · Knative Serving 1' });
    const core = page.getByRole('checkbox', { name: 'Service 1', exact: true });
    await knative.uncheck();
    await expect.poll(() => services.count()).toBe(1);
    expect(page.url()).toContain('hide=Service.serving.knative.dev');
    await graph.getByRole('link', { name: 'Deployment hello' }).waitFor();
    await knative.check();
    await core.uncheck();
    await expect.poll(() => services.count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await docsScreenshot(page, 'topology-knative-service-filter');
    await page.context().close();
  });
});
