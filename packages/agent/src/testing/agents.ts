import { testCluster } from '@binnacle/testkit';
import { afterAll, beforeAll } from 'vitest';
import { startTestAgent, type TestAgent } from './test-agent.ts';

export interface AgentsAndNamespace {
  /** An agent running as the control plane's admin. */
  readonly agent: TestAgent;
  /** An agent running as the identity with no RBAC at all: every API call it makes is refused. */
  readonly restricted: TestAgent;
  /** A namespace of the file's own, removed afterwards. */
  readonly ns: { name: string; remove: () => Promise<void> };
}

/**
 * The fixture most route tests share: an admin agent, a restricted one and a namespace named after `prefix`,
 * started before the file's tests and closed (the namespace removed) after them. Read the fields inside tests.
 */
export function agentsAndNamespace(prefix: string): AgentsAndNamespace {
  let started: AgentsAndNamespace | undefined;
  beforeAll(async () => {
    const [agent, restricted, ns] = await Promise.all([
      startTestAgent(),
      startTestAgent({ identity: 'restricted' }),
      testCluster().namespace(prefix),
    ]);
    started = { agent, restricted, ns };
  });
  afterAll(async () => {
    await Promise.all([started?.agent.close(), started?.restricted.close(), started?.ns.remove()]);
  });
  const field = <K extends keyof AgentsAndNamespace>(key: K) => {
    if (!started)
      throw new Error(`${prefix}: the agents are not started yet (read them inside a test or hook)`);
    return started[key];
  };
  return {
    get agent() {
      return field('agent');
    },
    get restricted() {
      return field('restricted');
    },
    get ns() {
      return field('ns');
    },
  };
}
