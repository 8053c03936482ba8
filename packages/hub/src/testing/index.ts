// Test support: an in-process hub (SQLite or PostgreSQL), signed in through a test IdP, with a clock tests move.
// Not part of the hub's public API.

export { ManualClock } from '../security/clock.ts';
export {
  type BillingTestHub,
  startBillingTestHub,
  testPrices,
  testWebhookSecret,
} from './billing-hub.ts';
export { type OidcTestHubConfig, oidcHubPerTest, startOidcTestHub, testHubUrl } from './oidc-hub.ts';
export { type StandInAgent, type StandInAnswer, startStandInAgent } from './stand-in-agent.ts';
export {
  addedUsersIdp,
  type Credential,
  freshDatabase,
  type HttpAnswer,
  startTestHub,
  type TestHub,
  testBreakGlass,
} from './test-hub.ts';
export { startTunneledListener, type TunneledListener, within } from './tunneled-listener.ts';
