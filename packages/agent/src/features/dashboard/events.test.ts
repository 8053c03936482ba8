import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { type EventLine, recentEvents } from './events.ts';

let clock = Date.parse('2026-11-28T12:00:00Z');
/** Each event a second newer than the one before. */
const event = (reason: string, component: string, type = 'Normal', name = 'app'): KubeObject => {
  clock += 1000;
  return {
    kind: 'Event',
    type,
    reason,
    message: `${reason} of ${name}`,
    count: 1,
    lastTimestamp: new Date(clock).toISOString(),
    source: { component },
    involvedObject: { kind: 'Kustomization', namespace: 'flux-system', name },
  };
};

const text = (line: EventLine) =>
  'routine' in line
    ? `${line.source}: ${line.count} routine (${line.reasons.join(', ')})`
    : `${line.type} ${line.reason}`;

describe('recentEvents', () => {
  it("folds a source's routine events into one line where its newest is, and never a warning", () => {
    const events = [
      event('ReconciliationSucceeded', 'kustomize-controller'),
      event('ArtifactUpToDate', 'source-controller'),
      event('BackOff', 'kubelet', 'Warning'),
      event('ReconciliationSucceeded', 'kustomize-controller'),
      event('ScalingReplicaSet', 'deployment-controller'),
      event('ReconciliationSucceeded', 'helm-controller'),
    ];
    expect(recentEvents(events).map(text)).toEqual([
      'Flux: 4 routine (ReconciliationSucceeded, ArtifactUpToDate)',
      'Normal ScalingReplicaSet',
      'Warning BackOff',
    ]);
  });

  it('lists the folded events newest first when opened, with their source', () => {
    const events = [
      event('Pulled', 'kubelet', 'Normal', 'old'),
      event('Started', 'kubelet', 'Normal', 'new'),
    ];
    const [line] = recentEvents(events);
    expect(line).toMatchObject({ routine: true, source: 'kubelet', count: 2 });
    expect(line && 'routine' in line ? line.events.map((e) => e.involvedObject.name) : []).toEqual([
      'new',
      'old',
    ]);
  });

  it('folds a flood of one reason from one source even when the reason is not a routine one', () => {
    const flood = Array.from({ length: 10 }, (_, i) => event('Sync', 'my-operator', 'Normal', `o${i}`));
    const lines = recentEvents([...flood, event('Killing', 'kubelet')]);
    expect(lines.map(text)).toEqual(['Normal Killing', 'my-operator: 10 routine (Sync)']);
  });

  it('shows a lone routine event as itself', () => {
    expect(recentEvents([event('Scheduled', 'default-scheduler')]).map(text)).toEqual(['Normal Scheduled']);
  });

  it('shows at most 20 lines, warnings each on its own', () => {
    const warnings = Array.from({ length: 25 }, (_, i) => event('Failed', 'kubelet', 'Warning', `w${i}`));
    const lines = recentEvents(warnings);
    expect(lines).toHaveLength(20);
    expect(lines.every((l) => !('routine' in l))).toBe(true);
  });
});
