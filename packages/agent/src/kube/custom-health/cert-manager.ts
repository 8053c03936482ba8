import type { KubeObject } from '@binnacle/common';
import { staleCondition } from './conventions.ts';
import { conditionsOf, find, type HealthWhy, noStatus, positive, record, text, verdict } from './verdict.ts';

/**
 * cert-manager v1.19.1: a Certificate's Ready comes from the readiness policy chain
 * (internal/controller/certificates/policies/constants.go: DoesNotExist, Expired, Renewing…), its Issuing from
 * the issuing controller (pkg/controller/certificates/issuing/issuing_controller.go: False with the failed
 * request's reason once an issuance failed, retried later); a CertificateRequest's Ready reasons are Pending,
 * Failed, Issued (pkg/apis/certmanager/v1/types_certificaterequest.go) beside Approved, Denied and
 * InvalidRequest; an ACME Order's or Challenge's `status.state` (pkg/apis/acme/v1/types_order.go).
 */
const none = new Set<string>();
const requestProgress = new Set(['Pending']);

function certificateHealth(certificate: KubeObject): HealthWhy {
  const conditions = conditionsOf(certificate);
  const ready = find(conditions, 'Ready');
  const issuing = find(conditions, 'Issuing');
  if (!ready && !issuing) return noStatus('on this certificate');
  const stale = ready && staleCondition(certificate, ready);
  if (stale) return stale;
  if (issuing?.status === 'False' && issuing.reason !== 'Issued' && ready?.status !== 'True')
    // The last issuance failed: cert-manager retries after a back-off, the Secret is not (or no longer) valid.
    return verdict('unhealthy', 'Issuing', issuing.reason, issuing.message);
  if (ready?.status === 'True') return positive(ready, none);
  if (issuing?.status === 'True') return verdict('degraded', 'Issuing', issuing.reason, issuing.message);
  if (ready?.reason === 'Expired') return verdict('unhealthy', 'Ready', ready.reason, ready.message);
  // Not ready, issuance about to be triggered (DoesNotExist, Renewing…).
  return ready ? verdict('degraded', 'Ready', ready.reason, ready.message) : noStatus('readiness');
}

function requestHealth(request: KubeObject): HealthWhy {
  const conditions = conditionsOf(request);
  if (conditions.length === 0) return noStatus('on this request');
  for (const type of ['Denied', 'InvalidRequest']) {
    const found = find(conditions, type);
    if (found?.status === 'True') return verdict('unhealthy', type, found.reason, found.message);
  }
  const ready = find(conditions, 'Ready');
  if (ready) return positive(ready, requestProgress);
  return find(conditions, 'Approved')?.status === 'True'
    ? verdict('degraded', 'Approved', 'Approved', 'approved, waiting for the issuer')
    : verdict('degraded', 'Approved', 'Pending', 'waiting for approval');
}

const stateWords: Record<string, HealthWhy['health']> = {
  valid: 'healthy',
  pending: 'degraded',
  ready: 'degraded',
  processing: 'degraded',
  invalid: 'unhealthy',
  errored: 'unhealthy',
  expired: 'unhealthy',
};

/** An ACME Order or Challenge by its state; `status.reason` says why it failed. */
function acmeHealth(object: KubeObject): HealthWhy {
  const status = record(object.status);
  const state = text(status.state);
  if (!state)
    return Object.keys(status).length === 0 ? noStatus('a state') : verdict('degraded', 'state', 'pending');
  return verdict(stateWords[state] ?? 'unknown', 'state', state, text(status.reason));
}

export function certManagerHealth(object: KubeObject): HealthWhy {
  switch (object.kind) {
    case 'Certificate':
      return certificateHealth(object);
    case 'CertificateRequest':
      return requestHealth(object);
    case 'Order':
    case 'Challenge':
      return acmeHealth(object);
    default: {
      // Issuer, ClusterIssuer: Ready says whether it can sign (an ACME account registered, a CA Secret found).
      const ready = find(conditionsOf(object), 'Ready');
      return ready ? (staleCondition(object, ready) ?? positive(ready, none)) : noStatus('on this issuer');
    }
  }
}
