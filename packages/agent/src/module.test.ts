import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AgentContext, App } from './context.ts';
import { defineAgentModule, registerModules } from './module.ts';
import { type AgentTool, toolsOf } from './scope/mcp/tool.ts';
import type { MetricsStores } from './scope/metricsdb/stores.ts';

const app = () => Fastify() as unknown as App;
let version = '1.0.0';
// Only the members these modules read; a getter, as the real context's cluster parts are.
const ctx = {
  get version() {
    return version;
  },
  mode: 'local',
} as unknown as AgentContext;
const stores = {} as MetricsStores;

describe('registerModules', () => {
  it('hands each module only the members it declares, getters live', async () => {
    const seen: Record<string, unknown>[] = [];
    const reader = defineAgentModule({
      name: 'reader',
      needs: ['version'],
      register(_app, view) {
        seen.push({ keys: Object.keys(view), mode: (view as Partial<AgentContext>).mode });
        version = '2.0.0';
        seen.push({ version: view.version });
      },
    });
    await registerModules(app(), ctx, [reader]);
    expect(seen).toEqual([{ keys: ['version'], mode: undefined }, { version: '2.0.0' }]);
  });

  it('builds provided services before any register, and refuses a use nothing provides', async () => {
    const order: string[] = [];
    const user = defineAgentModule({
      name: 'user',
      needs: [],
      uses: ['metricsStores'],
      register(_app, _ctx, uses) {
        order.push(`user got ${uses.metricsStores === stores}`);
      },
    });
    const provider = defineAgentModule({
      name: 'provider',
      needs: [],
      provides: ['metricsStores'],
      provide: () => {
        order.push('provide');
        return { metricsStores: stores };
      },
      register() {
        order.push('provider registers');
      },
    });
    await registerModules(app(), ctx, [user, provider]);
    expect(order).toEqual(['provide', 'user got true', 'provider registers']);
    await expect(registerModules(app(), ctx, [user])).rejects.toThrow(
      'module user uses metricsStores, which no module listed before it provides',
    );
  });

  it('skips a module its configuration turns off', async () => {
    const off = defineAgentModule({
      name: 'off',
      needs: [],
      enabled: () => false,
      register() {
        throw new Error('registered');
      },
    });
    await expect(registerModules(app(), ctx, [off])).resolves.toBeUndefined();
  });

  it("gathers the modules' tools in the order named, each run with its module's view and services", async () => {
    const tool = toolsOf<Pick<AgentContext, 'version'>, { metricsStores: MetricsStores }>();
    const echo = (name: string) =>
      tool({
        name,
        title: name,
        description: name,
        input: {},
        run: (_args, { ctx, uses, caller, now }) =>
          Promise.resolve({ version: ctx.version, stores: uses.metricsStores === stores, caller, now }),
      });
    const provider = defineAgentModule({
      name: 'provider',
      needs: [],
      provides: ['metricsStores'],
      provide: () => ({ metricsStores: stores }),
    });
    const first = defineAgentModule({
      name: 'first',
      needs: ['version'],
      uses: ['metricsStores'],
      tools: [echo('b'), echo('c')],
    });
    const second = defineAgentModule({
      name: 'second',
      needs: ['version'],
      uses: ['metricsStores'],
      tools: [echo('a')],
    });
    let served: readonly AgentTool[] = [];
    const host = defineAgentModule({
      name: 'host',
      needs: [],
      uses: ['mcpTools'],
      register(_app, _ctx, { mcpTools }) {
        served = mcpTools;
      },
    });
    await registerModules(app(), ctx, [provider, first, host, second], ['a', 'b', 'c']);
    // The endpoint reads the list when it serves: it holds the tools of the modules after it too by then.
    expect(served.map((t) => t.name)).toEqual(['a', 'b', 'c']);
    expect(await served[1]?.run({}, { now: 7 })).toEqual({
      version,
      stores: true,
      caller: undefined,
      now: 7,
    });
    await expect(registerModules(app(), ctx, [provider, first, second], ['b', 'c'])).rejects.toThrow(
      'tool a is missing from the tool order',
    );
  });
});
