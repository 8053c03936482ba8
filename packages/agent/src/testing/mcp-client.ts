import { waitUntil } from '@binnacle/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, expect } from 'vitest';
import type { TestAgent } from './test-agent.ts';

/**
 * Connects the SDK's own MCP client to a test agent's /mcp; every client a file connects is closed after its
 * tests. Call at the top of a test file.
 */
export function mcpClients(): (agent: TestAgent, path?: string) => Promise<Client> {
  const open: Client[] = [];
  afterAll(async () => {
    await Promise.all(open.map((client) => client.close()));
  });
  return async (agent, path = '/mcp') => {
    const client = new Client({ name: 'binnacle-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${agent.url}${path}`)));
    open.push(client);
    return client;
  };
}

type Content = { type: string; text: string }[];

/** A tool call's answer as text, and whether it is an error answer. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return {
    isError: result.isError === true,
    text: (result.content as Content).map((c) => c.text).join('\n'),
  };
}

/** A tool's JSON answer, failing the test on an error answer. */
export async function json<T>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await call(client, name, args);
  expect(result.isError, result.text).toBe(false);
  return JSON.parse(result.text) as T;
}

/** Reads until the answer is what a test waits for (the agent's cache follows the API server a moment later). */
export async function readUntil<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
): Promise<T> {
  let last: T | undefined;
  await waitUntil(
    what,
    async () => {
      last = await read();
      return done(last);
    },
    { timeoutMs: 20_000, intervalMs: 200 },
  );
  return last as T;
}
