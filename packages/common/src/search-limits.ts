/**
 * Free-text search over a cluster's cache: the agent's bounds, which the hub's fleet search checks before it
 * asks any cluster (a query every agent would refuse is the caller's mistake, not forty cluster errors).
 */
export const searchLimits = { defaultLimit: 50, maxLimit: 500, maxQueryChars: 256 };
