export { hubHelp, runHub } from './cli/hub-command.ts';
export { type HubConfig, hubDefaults, hubOptions, validateHubConfig } from './config/hub-config.ts';
export type { HubApp, HubContext, Role } from './context.ts';
export { addMember, createOrg, type Identity, upsertUser } from './db/directory.ts';
export { clusterForToken } from './features/clusters/service.ts';
export { activityGranularityMs } from './features/sessions/store.ts';
export { createHub, type Hub, hubVersion } from './hub.ts';
export { type Clock, systemClock } from './security/clock.ts';
export { hashSecret, wellFormed } from './security/tokens.ts';
