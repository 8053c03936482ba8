import type { KubeObject } from '@binnacle/common';
import { type HealthWhy, record, records, text, verdict } from './verdict.ts';

/**
 * Istio (istio.io/api v1.32.0, analysis/v1alpha1/message.proto, meta/v1alpha1/status.proto): istiod's analysis
 * writes `status.validationMessages` ({level: ERROR | WARNING | INFO, type: {code}, documentationUrl}) when status
 * writes are on (istiod fills the type's code only; `name` is read when another writer sets it); a VirtualService
 * or DestinationRule is healthy unless one of them is an ERROR.
 */
export function istioHealth(object: KubeObject): HealthWhy {
  const messages = records(record(object.status).validationMessages);
  const error = messages.find((m) => m.level === 'ERROR');
  if (!error) return verdict('healthy');
  const type = record(error.type);
  const others = messages.filter((m) => m.level === 'ERROR').length - 1;
  return verdict(
    'unhealthy',
    'validationMessages',
    text(type.name) ?? text(type.code) ?? 'Error',
    `${text(type.code) ?? ''}${others > 0 ? ` (and ${others} more errors)` : ''}${text(error.documentationUrl) ? ` ${text(error.documentationUrl)}` : ''}`.trim(),
  );
}
