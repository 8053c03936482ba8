import { describe, expect, it } from 'vitest';
import type { Case } from './cases.ts';
import { createAuditContext } from './context.ts';
import { deprecationCases } from './deprecations.cases.ts';
import { deprecationChecks } from './deprecations.ts';
import { efficiencyCases } from './efficiency.cases.ts';
import { efficiencyChecks } from './efficiency.ts';
import { now } from './fixtures.ts';
import { referenceCases } from './references.cases.ts';
import { referenceChecks } from './references.ts';
import { reliabilityPodCases } from './reliability-pod.cases.ts';
import { reliabilityPodChecks } from './reliability-pod.ts';
import { reliabilityScalingCases } from './reliability-scaling.cases.ts';
import { reliabilityScalingChecks } from './reliability-scaling.ts';
import { securityConfigCases } from './security-config.cases.ts';
import { securityConfigChecks } from './security-config.ts';
import { securityPodCases } from './security-pod.cases.ts';
import { securityPodChecks } from './security-pod.ts';
import { securityRbacCases } from './security-rbac.cases.ts';
import { securityRbacChecks } from './security-rbac.ts';
import type { Check } from './types.ts';

/** Each check on its own manifests: exactly the findings its table expects, none on the ones it must pass. */
export function runCases(title: string, checks: readonly Check[], cases: readonly Case[]): void {
  describe(title, () => {
    it.each(cases.map((c) => [`${c.check}: ${c.name}`, c] as const))('%s', (_name, c) => {
      const check = checks.find((k) => k.meta.id === c.check);
      if (!check) throw new Error(`no check ${c.check} in ${title}`);
      const context = createAuditContext([c.object, ...(c.cluster ?? [])], { now, ...c.options });
      const findings = check.run(c.object, context);
      expect(findings).toEqual(
        c.expect.map(([severity, message, container]) => ({
          checkId: c.check,
          severity,
          message: expect.stringContaining(message),
          ...(container === undefined ? {} : { container }),
        })),
      );
    });
  });
}

runCases('security checks on pod specs', securityPodChecks, securityPodCases);
runCases('security checks on configuration', securityConfigChecks, securityConfigCases);
runCases('security checks on RBAC', securityRbacChecks, securityRbacCases);
runCases('reliability checks on pod specs', reliabilityPodChecks, reliabilityPodCases);
runCases(
  'reliability checks on replicas, disruption budgets and autoscalers',
  reliabilityScalingChecks,
  reliabilityScalingCases,
);
runCases('the removed API versions check', deprecationChecks, deprecationCases);
runCases('reference checks', referenceChecks, referenceCases);
runCases('efficiency checks', efficiencyChecks, efficiencyCases);
