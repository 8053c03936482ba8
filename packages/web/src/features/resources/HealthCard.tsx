import { groupOf, integrationOf, type KubeObject } from '@binnacle/common';
import type { Answer } from '../../api/client.ts';
import { Badge, type Tone } from '../../ui/Badge.tsx';
import { mutedLook } from '../../ui/controls.tsx';
import { Card } from '../../ui/states.tsx';
import { Conditions } from './details/Conditions.tsx';
import { type Condition, conditionTrouble } from './details/format.ts';

type HealthWhy = Answer<'/api/resources/{kind}/{namespace}/{name}'>['health'];

const tones: Record<HealthWhy['health'], Tone> = {
  healthy: 'good',
  degraded: 'info',
  unhealthy: 'bad',
  unknown: 'muted',
};

/** Kubernetes' own groups: their kinds have pages of their own that show their conditions. */
const builtIn = (group: string) => group === '' || !group.includes('.') || group.endsWith('.k8s.io');

/**
 * Whether an object gets the health card: a custom resource (its kind has no page of its own), also an ecosystem
 * kind a SIG names under `k8s.io` (Gateway API).
 */
export const showsHealthCard = (resource: KubeObject) => {
  const group = groupOf(resource.apiVersion);
  return !builtIn(group) || integrationOf(group, resource.kind ?? '') !== undefined;
};

/**
 * A custom resource's health as the agent judges it (ADR 0126, docs/integrations/): the word, what decided it
 * (the deciding condition or phase) with its reason and message, then the object's conditions.
 */
export function HealthCard({ resource, health }: { resource: KubeObject; health: HealthWhy }) {
  const conditions = (resource.status?.conditions as Condition[] | undefined) ?? [];
  const decided = [health.from, health.reason].filter(Boolean).join(': ');
  return (
    <Card title="Health">
      <div className="flex flex-col gap-3">
        <p className="flex flex-wrap items-baseline gap-2 text-sm" data-testid="health-why">
          <Badge tone={tones[health.health]}>{health.health}</Badge>
          {decided && <span className="font-medium">{decided}</span>}
          {health.message && <span className="break-words">{health.message}</span>}
          {!decided && !health.message && (
            <span className={mutedLook}>no condition or phase to judge by yet</span>
          )}
        </p>
        {conditions.length > 0 && <Conditions conditions={conditions} bad={conditionTrouble} />}
      </div>
    </Card>
  );
}
