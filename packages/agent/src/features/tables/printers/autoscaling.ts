import { age, ageColumn, arr, column, type Json, num, obj, str } from './format.ts';
import type { Printer } from './index.ts';

/** The HorizontalPodAutoscaler printer (autoscaling/v2 objects), TARGETS as kubectl shows them (ADR 0053). */

/** A quantity as the API server serialized it; an absent one is a nil pointer, which Go prints `<nil>`. */
const quantity = (value: unknown) => str(value) || '<nil>';

/** `current/target` of a metric that has a value or an average value target, `(avg)` for the latter on objects. */
function valueTarget(target: Json, current: Json | undefined, averageSuffix: string): string {
  if (target.averageValue !== undefined) {
    const now = current?.averageValue === undefined ? '<unknown>' : quantity(current.averageValue);
    return `${now}/${quantity(target.averageValue)}${averageSuffix}`;
  }
  const now = current === undefined ? '<unknown>' : quantity(current.value);
  return `${now}/${quantity(target.value)}`;
}

/** `name: current/target` of a resource metric: a utilization in percent unless the target is an average value. */
function resourceTarget(spec: Json, current: Json | undefined): string {
  const target = obj(spec.target);
  const name = str(spec.name);
  if (target.averageValue !== undefined) {
    return `${name}: ${current === undefined ? '<unknown>' : quantity(current.averageValue)}/${quantity(target.averageValue)}`;
  }
  const now =
    typeof current?.averageUtilization === 'number' ? `${current.averageUtilization}%` : '<unknown>';
  const wanted = typeof target.averageUtilization === 'number' ? `${target.averageUtilization}%` : '<auto>';
  return `${name}: ${now}/${wanted}`;
}

function metricText(spec: Json, status: Json | undefined): string {
  const currentOf = (key: string) =>
    status?.[key] === undefined ? undefined : obj(obj(status[key]).current);
  switch (spec.type) {
    case 'External':
      return valueTarget(obj(obj(spec.external).target), currentOf('external'), ' (avg)');
    case 'Object':
      return valueTarget(obj(obj(spec.object).target), currentOf('object'), ' (avg)');
    case 'Pods': {
      const current = currentOf('pods');
      const now = current === undefined ? '<unknown>' : quantity(current.averageValue);
      return `${now}/${quantity(obj(obj(spec.pods).target).averageValue)}`;
    }
    case 'Resource':
      return resourceTarget(obj(spec.resource), currentOf('resource'));
    case 'ContainerResource':
      return resourceTarget(obj(spec.containerResource), currentOf('containerResource'));
    default:
      return '<unknown type>';
  }
}

/** TARGETS: the first two metrics, `+ N more...` after them; `<none>` without metrics. */
function formatMetrics(specs: Json[], statuses: Json[]): string | null {
  if (specs.length === 0) return null;
  const shown = specs.slice(0, 2).map((spec, index) => metricText(spec, statuses[index]));
  const text = shown.join(', ');
  return specs.length > 2 ? `${text} + ${specs.length - 2} more...` : text;
}

export const horizontalPodAutoscalerPrinter: Printer = {
  columns: [
    column('REFERENCE'),
    column('TARGETS'),
    column('MINPODS', 'integer'),
    column('MAXPODS', 'integer'),
    column('REPLICAS', 'integer'),
    ageColumn,
  ],
  print(object) {
    const spec = obj(object.spec);
    const status = obj(object.status);
    const target = obj(spec.scaleTargetRef);
    return {
      cells: [
        `${str(target.kind)}/${str(target.name)}`,
        formatMetrics(arr(spec.metrics), arr(status.currentMetrics)),
        typeof spec.minReplicas === 'number' ? spec.minReplicas : '<unset>',
        num(spec.maxReplicas),
        num(status.currentReplicas),
        age(object),
      ],
    };
  },
};
