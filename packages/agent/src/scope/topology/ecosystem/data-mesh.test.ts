import { describe, expect, it } from 'vitest';
import { buildTopology } from '../builder.ts';
import { edgeLines, inputOf, object, ownedBy } from './objects.fixture.ts';

describe('CloudNativePG', () => {
  const pg = 'postgresql.cnpg.io/v1';
  const cluster = object(pg, 'Cluster', 'db', 'orders', {
    spec: { instances: 2 },
    status: { readyInstances: 2 },
  });
  const pod = (name: string) =>
    object('v1', 'Pod', 'db', name, {
      metadata: { labels: { 'cnpg.io/cluster': 'orders' }, ownerReferences: ownedBy(cluster) },
      spec: { containers: [] },
      status: { phase: 'Running' },
    });
  const service = (suffix: string) =>
    object('v1', 'Service', 'db', `orders-${suffix}`, {
      metadata: { ownerReferences: ownedBy(cluster) },
      spec: { selector: { 'cnpg.io/cluster': 'orders' } },
    });
  const scheduled = object(pg, 'ScheduledBackup', 'db', 'daily', { spec: { cluster: { name: 'orders' } } });
  const backup = object(pg, 'Backup', 'db', 'daily-1', {
    metadata: { labels: { 'cnpg.io/scheduled-backup': 'daily' } },
    spec: { cluster: { name: 'orders' } },
    status: { phase: 'completed' },
  });
  const veleroBackup = object('velero.io/v1', 'Backup', 'db', 'daily-1', { spec: {} });

  it('draws Cluster → its pods and Services, its Backups and ScheduledBackups, apart from a Velero Backup of that name', () => {
    const services = ['rw', 'ro', 'r'].map(service);
    const objects = [cluster, pod('orders-1'), pod('orders-2'), ...services, scheduled, backup, veleroBackup];
    const t = buildTopology(inputOf(...objects));
    expect(edgeLines(t.edges)).toEqual([
      'backup.postgresql.cnpg.io/db/daily-1 -protects-> cluster.postgresql.cnpg.io/db/orders',
      'cluster.postgresql.cnpg.io/db/orders -manages-> pod/db/orders-1',
      'cluster.postgresql.cnpg.io/db/orders -manages-> pod/db/orders-2',
      'cluster.postgresql.cnpg.io/db/orders -manages-> service/db/orders-r',
      'cluster.postgresql.cnpg.io/db/orders -manages-> service/db/orders-ro',
      'cluster.postgresql.cnpg.io/db/orders -manages-> service/db/orders-rw',
      'scheduledbackup.postgresql.cnpg.io/db/daily -manages-> backup.postgresql.cnpg.io/db/daily-1',
      'scheduledbackup.postgresql.cnpg.io/db/daily -protects-> cluster.postgresql.cnpg.io/db/orders',
    ]);
    const backups = t.nodes.filter((n) => n.kind === 'Backup').map((n) => [n.id, n.data.phase]);
    expect(backups.sort()).toEqual([
      ['backup.postgresql.cnpg.io/db/daily-1', 'completed'],
      ['backup.velero.io/db/daily-1', undefined],
    ]);
  });

  it('groups many instance pods under their Cluster', () => {
    const pods = Array.from({ length: 7 }, (_, i) => pod(`orders-${i + 1}`));
    const t = buildTopology(inputOf(cluster, ...pods));
    expect(edgeLines(t.edges)).toEqual([
      'cluster.postgresql.cnpg.io/db/orders -manages-> podgroup/db/cluster-orders',
    ]);
  });

  it('flags a Backup of a cluster that does not exist', () => {
    const orphan = object(pg, 'Backup', 'db', 'old', { spec: { cluster: { name: 'legacy' } } });
    const t = buildTopology({ ...inputOf(orphan), 'Cluster.postgresql.cnpg.io': [] });
    expect(t.nodes.find((n) => n.kind === 'Backup')?.data.problems).toEqual([
      'Cluster db/legacy does not exist',
    ]);
  });
});

describe('Istio', () => {
  const net = 'networking.istio.io/v1';
  const reviews = object('v1', 'Service', 'shop', 'reviews', { spec: { selector: { app: 'reviews' } } });
  const ratings = object('v1', 'Service', 'data', 'ratings', { spec: { selector: { app: 'ratings' } } });
  const pod = (name: string, version: string) =>
    object('v1', 'Pod', 'shop', name, {
      metadata: { labels: { app: 'reviews', version } },
      spec: { containers: [] },
      status: { phase: 'Running' },
    });
  const vs = object(net, 'VirtualService', 'shop', 'reviews', {
    spec: {
      hosts: ['reviews'],
      http: [
        {
          route: [
            { destination: { host: 'reviews', subset: 'v1' }, weight: 90 },
            { destination: { host: 'ratings.data.svc.cluster.local' }, weight: 10 },
          ],
        },
        { route: [{ destination: { host: 'httpbin.org' } }] },
        { route: [{ destination: { host: 'gone' } }] },
      ],
    },
  });
  const rule = object(net, 'DestinationRule', 'shop', 'reviews', {
    spec: {
      host: 'reviews.shop.svc.cluster.local',
      subsets: [
        { name: 'v1', labels: { version: 'v1' } },
        { name: 'v2', labels: { version: 'v2' } },
      ],
    },
  });

  it('draws VirtualService → its hosts’ Services (short names, FQDN), flags a cluster host without one, not an outside host', () => {
    const t = buildTopology(inputOf(reviews, ratings, vs));
    expect(edgeLines(t.edges)).toEqual([
      'virtualservice.networking.istio.io/shop/reviews -routes-to-> service/data/ratings',
      'virtualservice.networking.istio.io/shop/reviews -routes-to-> service/shop/gone',
      'virtualservice.networking.istio.io/shop/reviews -routes-to-> service/shop/reviews',
    ]);
    expect(t.nodes.find((n) => n.kind === 'VirtualService')?.data.problems).toEqual([
      'Service shop/gone does not exist',
    ]);
  });

  it('draws DestinationRule → its Service, counting the pods each subset selects', () => {
    const t = buildTopology(
      inputOf(reviews, rule, pod('reviews-v1-a', 'v1'), pod('reviews-v1-b', 'v1'), pod('reviews-v2-a', 'v2')),
    );
    expect(edgeLines(t.edges).filter((e) => e.startsWith('destinationrule'))).toEqual([
      'destinationrule.networking.istio.io/shop/reviews -configures-> service/shop/reviews',
    ]);
    expect(t.nodes.find((n) => n.kind === 'DestinationRule')?.data.subsets).toEqual([
      { name: 'v1', labels: { version: 'v1' }, pods: 2 },
      { name: 'v2', labels: { version: 'v2' }, pods: 1 },
    ]);
  });
});
