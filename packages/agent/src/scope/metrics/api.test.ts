import { afterEach, describe, expect, it } from 'vitest';
import { fakeApiServer } from '../../kube/fake-api-server.ts';
import { MetricsAvailability } from './api.ts';

// The shared control plane's metrics-server cannot be made unreachable without stalling every other test's
// namespace cleanup (discovery fails while an APIService is unavailable), so that answer comes from a fake.
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
});

async function availabilityAnswering(status: number, body: unknown) {
  let reads = 0;
  const fake = await fakeApiServer((req, res) => {
    reads += 1;
    expect(req.url).toBe('/apis/apiregistration.k8s.io/v1/apiservices/v1beta1.metrics.k8s.io');
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  close = fake.close;
  return { availability: new MetricsAvailability(fake.client), reads: () => reads };
}

describe('MetricsAvailability', () => {
  it('names the failing condition of an APIService the aggregator cannot reach', async () => {
    const { availability } = await availabilityAnswering(200, {
      status: {
        conditions: [
          {
            type: 'Available',
            status: 'False',
            reason: 'FailedDiscoveryCheck',
            message: 'failing or missing response from https://10.0.0.7:10250/apis/metrics.k8s.io/v1beta1',
          },
        ],
      },
    });
    expect(await availability.check()).toEqual({
      available: false,
      reason: 'not_available',
      diagnosis: expect.stringContaining(
        '(FailedDiscoveryCheck: failing or missing response from https://10.0.0.7:10250/apis/metrics.k8s.io/v1beta1)',
      ),
    });
  });

  it('asks the API server at most once per few seconds unless told to look again', async () => {
    const { availability, reads } = await availabilityAnswering(200, {
      status: { conditions: [{ type: 'Available', status: 'True' }] },
    });
    expect(await availability.check()).toEqual({ available: true });
    await availability.check();
    expect(reads()).toBe(1);
    await availability.check({ fresh: true });
    expect(reads()).toBe(2);
  });

  it('lets the metrics requests speak when it may not read APIServices', async () => {
    const { availability } = await availabilityAnswering(403, {
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
    });
    expect(await availability.check()).toEqual({ available: true });
  });
});
