import { startTestAgent, type TestAgent, type TestAgentOptions } from '@binnacle/agent/testing';
import { launchBrowser, testCluster } from '@binnacle/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** What a browser test file of the agent's UI drives: filled in before its first test. */
export interface AgentInBrowser {
  agent: TestAgent;
  browser: Browser;
  /** A namespace of the file's own, removed after its last test. */
  ns: { name: string; remove: () => Promise<void> };
}

/**
 * One agent, one Chromium and one namespace for a test file, started together before its tests (a file's own
 * beforeAll runs after, its afterAll before the closing), and closed after them: the browser first, since
 * closing it with the agent at once may end a page's context under it.
 */
export function agentInBrowser(namespace: string, options?: TestAgentOptions): AgentInBrowser {
  const suite = {} as AgentInBrowser;
  beforeAll(async () => {
    [suite.agent, suite.browser, suite.ns] = await Promise.all([
      startTestAgent(options),
      launchBrowser(),
      testCluster().namespace(namespace),
    ]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await Promise.all([suite.agent?.close(), suite.ns?.remove()]);
  });
  return suite;
}
