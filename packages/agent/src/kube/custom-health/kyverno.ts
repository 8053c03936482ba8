import type { KubeObject } from '@binnacle/common';
import {
  conditionsOf,
  count,
  find,
  type HealthWhy,
  positive,
  record,
  records,
  text,
  verdict,
} from './verdict.ts';

/**
 * Kyverno 1.19.1: a policy's Ready condition (api/kyverno/v1/policy_status.go: reason Succeeded or
 * Failed) or, from older controllers, `status.ready`; a PolicyReport's `summary` counts its results by outcome
 * (wgpolicyk8s.io/v1alpha2, api/policyreport/v1alpha2/common.go): a fail or an error is a policy the objects it
 * names break; warnings are on their way to it.
 */
const none = new Set<string>();

function policyHealth(policy: KubeObject): HealthWhy {
  const ready = find(conditionsOf(policy), 'Ready');
  if (ready) return positive(ready, none);
  const flag = record(policy.status).ready;
  if (typeof flag === 'boolean')
    return verdict(flag ? 'healthy' : 'unhealthy', 'ready', flag ? 'Ready' : 'NotReady');
  return verdict('unknown', undefined, 'NoStatus', 'Kyverno has not reported on this policy yet');
}

/** The first failing result, named: `require-labels/check-team on Pod shop/web`. */
function firstFailure(report: KubeObject): string | undefined {
  const failing = records(report.results).find((r) => r.result === 'fail' || r.result === 'error');
  if (!failing) return undefined;
  const resource = records(failing.resources)[0] ?? record(report.scope);
  const target = text(resource.name)
    ? ` on ${text(resource.kind) ?? ''} ${text(resource.namespace) ? `${text(resource.namespace)}/` : ''}${text(resource.name)}`
    : '';
  const message = text(failing.message);
  return `${text(failing.policy) ?? '?'}/${text(failing.rule) ?? '?'}${target}${message ? `: ${message}` : ''}`;
}

function reportHealth(report: KubeObject): HealthWhy {
  const summary = record(report.summary);
  const [fail, error, warn] = [count(summary.fail), count(summary.error), count(summary.warn)];
  if (fail + error > 0) {
    const counts = `${fail} failed, ${error} errored`;
    const first = firstFailure(report);
    return verdict('unhealthy', 'summary', 'PolicyViolations', first ? `${counts}; ${first}` : counts);
  }
  if (warn > 0) return verdict('degraded', 'summary', 'PolicyWarnings', `${warn} warnings`);
  return verdict('healthy', 'summary', 'Pass', `${count(summary.pass)} passed`);
}

export function kyvernoHealth(object: KubeObject): HealthWhy {
  return object.kind === 'PolicyReport' || object.kind === 'ClusterPolicyReport'
    ? reportHealth(object)
    : policyHealth(object);
}
