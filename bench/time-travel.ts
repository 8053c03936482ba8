import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '@binnacle/common';
import { HistoryStore } from '../packages/agent/src/scope/history/history-store.ts';
import { HistoryJournal } from '../packages/agent/src/scope/history/journal.ts';
import { ObjectVersions } from '../packages/agent/src/scope/history/versions.ts';
import {
  buildTopology,
  defaultTopologyOptions,
  type TopologyInput,
} from '../packages/agent/src/scope/topology/builder.ts';
import { exposedCollector } from '../packages/cli/src/heap.ts';
import { goal } from './goals.ts';
import type { BenchResult } from './run.ts';

const pods = 10_000;
const perDeployment = 10;
const namespaces = 20;
const changes = 3600;
const windowMs = 24 * 3_600_000;
const collect = exposedCollector();

/** A pod with the fields a real one has (3–4 KB as JSON, as the agent's cache holds it). */
function pod(index: number, version: number, restarts = 0): KubeObject {
  const deployment = Math.floor(index / perDeployment);
  const namespace = `team-${deployment % namespaces}`;
  const name = `app-${deployment}-7d9f8c6b5-${index.toString(36).padStart(5, '0')}`;
  const started = new Date(Date.UTC(2026, 10, 28, 0, 0, index % 3600)).toISOString();
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      generateName: `app-${deployment}-7d9f8c6b5-`,
      namespace,
      uid: `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
      resourceVersion: String(version),
      creationTimestamp: started,
      labels: { app: `app-${deployment}`, 'pod-template-hash': '7d9f8c6b5', tier: 'backend' },
      annotations: { 'kubectl.kubernetes.io/restartedAt': started },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `app-${deployment}-7d9f8c6b5`,
          uid: `rs-${deployment}`,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      volumes: [
        {
          name: 'kube-api-access',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              {
                downwardAPI: {
                  items: [
                    { path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } },
                  ],
                },
              },
            ],
          },
        },
      ],
      containers: [
        {
          name: 'app',
          image: `registry.example.com/team/app-${deployment}:1.4.2`,
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          env: [
            { name: 'LOG_LEVEL', value: 'info' },
            { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
          ],
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
          readinessProbe: {
            httpGet: { path: '/ready', port: 8080, scheme: 'HTTP' },
            periodSeconds: 10,
            timeoutSeconds: 1,
            successThreshold: 1,
            failureThreshold: 3,
          },
          volumeMounts: [
            {
              name: 'kube-api-access',
              readOnly: true,
              mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
            },
          ],
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      nodeName: `node-${index % 100}`,
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
      priority: 0,
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
    },
    status: {
      phase: 'Running',
      conditions: [
        'PodReadyToStartContainers',
        'Initialized',
        'Ready',
        'ContainersReady',
        'PodScheduled',
      ].map((type) => ({
        type,
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: started,
      })),
      hostIP: `10.0.${index % 100}.1`,
      podIP: `10.244.${Math.floor(index / 250)}.${index % 250}`,
      podIPs: [{ ip: `10.244.${Math.floor(index / 250)}.${index % 250}` }],
      startTime: started,
      containerStatuses: [
        {
          name: 'app',
          state: { running: { startedAt: started } },
          ...(restarts > 0
            ? {
                lastState: {
                  terminated: {
                    exitCode: 137,
                    reason: 'OOMKilled',
                    startedAt: started,
                    finishedAt: started,
                    containerID: `containerd://${restarts}`,
                  },
                },
              }
            : {}),
          ready: true,
          restartCount: restarts,
          image: `registry.example.com/team/app-${deployment}:1.4.2`,
          imageID: `registry.example.com/team/app-${deployment}@sha256:${'ab'.repeat(32)}`,
          containerID: `containerd://${'cd'.repeat(32)}${restarts}`,
          started: true,
        },
      ],
      qosClass: 'Burstable',
    },
  };
}

function deployment(index: number, version: number, replicas: number, image = '1.4.2'): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: `app-${index}`,
      namespace: `team-${index % namespaces}`,
      uid: `d-${index}`,
      resourceVersion: String(version),
      generation: version,
    },
    spec: {
      replicas,
      selector: { matchLabels: { app: `app-${index}` } },
      template: {
        metadata: { labels: { app: `app-${index}` } },
        spec: { containers: [{ name: 'app', image: `registry.example.com/team/app-${index}:${image}` }] },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
    },
    status: {
      observedGeneration: version,
      replicas,
      readyReplicas: replicas,
      availableReplicas: replicas,
      updatedReplicas: replicas,
    },
  };
}

const heapMB = () => {
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

/**
 * Issue 42's time-travel figures, in process with compressed time (the stored data is what an hour at one change a
 * second stores): 10 000 realistic pods and their Deployments; 3 600 changes, one per simulated second — status
 * changes and restarts (70 %), scales (10 %), rollouts (10 %), a pod replaced (10 %) — then the bytes kept per
 * change in memory and in the SQLite file (written through the journal, as `--timeline-storage sqlite` does), the heap the history adds over the same changes without it, a whole-cluster pod list and a namespace's
 * topology as they were half an hour before the end.
 */
export function timeTravel(): Promise<BenchResult> {
  const start = Date.UTC(2026, 10, 29, 0, 0, 0);
  const dir = mkdtempSync(join(tmpdir(), 'binnacle-bench-history-'));
  const store = HistoryStore.open(join(dir, 'timeline.history.db'));
  let now = start;
  let journal = new HistoryJournal(store, { now: () => now });
  const run = (keepHistory: boolean) => {
    const cache = new Map<string, KubeObject>();
    // As with `--timeline-storage sqlite`: every state also goes to the SQLite file, through the journal.
    const history = new ObjectVersions({
      windowMs,
      maxBytes: 1024 ** 3,
      ...(keepHistory ? { journal: (step) => journal.add(step) } : {}),
    });
    const podsNow = Array.from({ length: pods }, (_, i) => pod(i, i + 1));
    const deployments = Array.from({ length: pods / perDeployment }, (_, i) =>
      deployment(i, 1, perDeployment),
    );
    for (const object of [...podsNow, ...deployments]) cache.set(String(object.metadata?.uid), object);
    if (keepHistory) {
      history.begin('pods', podsNow, start);
      history.begin('deployments.apps', deployments, start);
      // The first lists written whole: the file's floor, before any change.
      journal.close();
      journal = new HistoryJournal(store, { now: () => now });
      diskBaseline = store.sizeBytes();
    }
    const baseline = heapMB();
    let version = pods * 2;
    let random = 42;
    const next = (n: number) => {
      random = (random * 1_103_515_245 + 12_345) % 2 ** 31;
      return random % n;
    };
    const restarts = new Map<number, number>();
    for (let second = 1; second <= changes; second += 1) {
      const at = start + second * 1000;
      now = at;
      const kind = next(10);
      version += 1;
      if (kind < 7) {
        const index = next(pods);
        const count = (restarts.get(index) ?? 0) + 1;
        restarts.set(index, count);
        const changed = pod(index, version, count);
        cache.set(String(changed.metadata?.uid), changed);
        if (keepHistory) history.record('pods', changed, at);
      } else if (kind < 9) {
        const index = next(deployments.length);
        const changed =
          kind === 7
            ? deployment(index, version, perDeployment + 1 + next(3))
            : deployment(index, version, perDeployment, `1.5.${second}`);
        cache.set(String(changed.metadata?.uid), changed);
        if (keepHistory) history.record('deployments.apps', changed, at);
      } else {
        const index = next(pods);
        const gone = cache.get(String(pod(index, 0).metadata?.uid)) as KubeObject;
        if (keepHistory) history.remove('pods', gone, at);
        const replacement = pod(index, version);
        const uid = `${String(replacement.metadata?.uid)}-${second}`;
        const fresh = { ...replacement, metadata: { ...replacement.metadata, uid } };
        cache.delete(String(gone.metadata?.uid));
        cache.set(uid, fresh);
        if (keepHistory) history.record('pods', fresh, at);
      }
    }
    if (keepHistory) journal.close();
    const grown = heapMB() - baseline;
    return { history, grown, cache };
  };
  let diskBaseline = 0;
  const without = run(false);
  const withHistory = run(true);
  const historyMB = withHistory.grown - without.grown;
  const past = start + (changes - 1800) * 1000;
  const timed = (work: () => unknown) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const t = performance.now();
      work();
      times.push(performance.now() - t);
    }
    return Math.round(times.sort((a, b) => a - b)[2] ?? 0);
  };
  const { history } = withHistory;
  const listMs = timed(() => JSON.stringify(history.list('pods', past)));
  const listed = history.list('pods', past).length;
  const topologyMs = timed(() => {
    const input: TopologyInput = {
      Pod: history.list('pods', past, ['team-3']),
      Deployment: history.list('deployments.apps', past, ['team-3']),
    };
    return buildTopology(input, defaultTopologyOptions);
  });
  const stats = history.stats();
  const perChange = Math.round(stats.pastBytes / changes);
  const diskBytes = store.sizeBytes();
  const perChangeOnDisk = Math.round((diskBytes - diskBaseline) / changes);
  store.close();
  rmSync(dir, { recursive: true, force: true });
  const data = {
    pods,
    changes,
    perChangeBytes: perChange,
    pastBytes: stats.pastBytes,
    diskBaselineBytes: diskBaseline,
    diskBytes,
    perChangeOnDiskBytes: perChangeOnDisk,
    historyHeapMB: Math.round(historyMB * 10) / 10,
    listMs,
    listed,
    topologyMs,
  };
  return Promise.resolve({
    name: 'time-travel',
    summary: `in process, ${pods} pods, ${changes} changes at one a second (compressed): ${goal(perChange, 1024, 'B')} kept per change in memory (${(stats.pastBytes / 1024 / 1024).toFixed(1)} MB of past states as JSON), ${goal(perChangeOnDisk, 1024, 'B')} per change in SQLite (the file ${(diskBaseline / 1024 / 1024).toFixed(1)} MB after the first lists, ${(diskBytes / 1024 / 1024).toFixed(1)} MB after the hour), heap the history adds ${goal(Math.round(historyMB * 10) / 10, 60, 'MB')}; 30 min back: whole-cluster pod list (${listed} pods, as JSON) ${goal(listMs, 1000, 'ms')}, a namespace's topology ${goal(topologyMs, 200, 'ms')}`,
    data,
  });
}
