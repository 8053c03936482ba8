import { readFileSync } from 'node:fs';
import { flagTableDisagreements, helpDisagreements } from '@binnacle/testkit';
import { describe, expect, it } from 'vitest';
import { hubHelp } from '../cli/hub-command.ts';
import { billingOptions, stripeSecretKeyEnv, stripeWebhookSecretEnv } from './billing-config.ts';
import { hubDefaults, hubFileKeys } from './hub-config.ts';
import { hubOptions, secretSettings } from './hub-options.ts';

const doc = (name: string) => readFileSync(new URL(`../../../../docs/${name}`, import.meta.url), 'utf8');
const fileKeys = hubFileKeys();
const billingFlags = new Set(billingOptions.map((spec) => spec.flag));

describe('the defaults have one source', () => {
  it("docs/hub.md's settings table agrees with the option specs and hubDefaults", () => {
    const secrets = Object.entries(secretSettings).map(([fileKey, env]) => ({ env, fileKey }));
    const specs = hubOptions.filter((spec) => !billingFlags.has(spec.flag));
    expect(
      flagTableDisagreements(doc('hub.md'), '## Settings', specs, hubDefaults(), fileKeys, secrets),
    ).toEqual([]);
  });

  it("docs/billing.md's settings table agrees with the billing option specs and hubDefaults", () => {
    const specs = hubOptions.filter((spec) => billingFlags.has(spec.flag));
    const secrets = [{ env: stripeSecretKeyEnv }, { env: stripeWebhookSecretEnv }];
    expect(
      flagTableDisagreements(doc('billing.md'), '## Configuration', specs, hubDefaults(), fileKeys, secrets),
    ).toEqual([]);
  });

  it('--help states the defaults the hub runs with, from hubDefaults or defaultText only', () => {
    expect(helpDisagreements(hubHelp(), hubOptions, hubDefaults())).toEqual([]);
  });
});
