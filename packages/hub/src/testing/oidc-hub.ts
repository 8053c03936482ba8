import { startTestIdp, type TestIdp, type TestIdpOptions } from '@binnacle/testkit';
import { afterEach } from 'vitest';
import type { HubConfig } from '../config/hub-config.ts';
import { ManualClock } from '../security/clock.ts';
import { startTestHub, type TestHub } from './test-hub.ts';

export const testHubUrl = 'https://hub.binnacle.test';

/** Hub settings, or a function of the started IdP for settings that name it. */
export type OidcTestHubConfig = Partial<HubConfig> | ((idp: TestIdp) => Partial<HubConfig>);

/**
 * A real IdP on loopback and a hub signing people in through it. The hub's clock starts at the real time,
 * as the IdP's tokens do; `close` stops both.
 */
export async function startOidcTestHub(
  options: { idp?: Partial<TestIdpOptions>; config?: OidcTestHubConfig } = {},
) {
  const idp: TestIdp = await startTestIdp({ hubUrl: testHubUrl, idTokenTtl: 300, ...options.idp });
  const t: TestHub = await startTestHub({
    clock: new ManualClock(new Date()),
    config: {
      oidcIssuer: idp.issuer,
      oidcClientId: idp.clientId,
      oidcClientSecret: idp.clientSecret,
      ...(typeof options.config === 'function' ? options.config(idp) : options.config),
    },
  });
  return {
    idp,
    t,
    async close() {
      await t.close();
      await idp.close();
    },
  };
}

/**
 * For a test file: `setup({ idp, config })` starts an IdP and a hub for the current test; both are closed
 * after each test.
 */
export function oidcHubPerTest() {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const started of opened.splice(0).reverse()) await started.close();
  });
  return async (options: { idp?: Partial<TestIdpOptions>; config?: OidcTestHubConfig } = {}) => {
    const started = await startOidcTestHub(options);
    opened.push(started);
    return started;
  };
}
