import type { AgentContext, App } from './context.ts';
import { type AgentTool, boundTool, type ModuleTool } from './scope/mcp/tool.ts';
import type { MetricsStores } from './scope/metricsdb/stores.ts';
import type { ObjectViews } from './scope/object-views.ts';
import type { TrafficPairs } from './scope/topology/traffic-edges.ts';

/**
 * What feature modules hand one another, by name (docs/adr/0092-feature-modules.md): a module lists what it
 * `provides` (its `provide`, or else its register, returns them) and what it `uses` (its register receives them).
 * Every `provide` runs before any register; a service a register returns serves only the modules after it.
 */
export interface SharedServices {
  /** The metrics store the agent reads (Prometheus or compatible), found once for every area that reads it. */
  metricsStores: MetricsStores;
  /** The caller's traffic between workloads, which the topology draws as edges. */
  trafficPairs: TrafficPairs;
  /** Objects as an assistant reads them, redacted (the ai feature). */
  objectViews: ObjectViews;
  /**
   * The MCP tools of every enabled module, in the composition root's order, each bound to its module's view and
   * services (docs/adr/0101-mcp-tools-from-modules.md): the list fills as the modules register, before the agent
   * serves a request.
   */
  mcpTools: readonly AgentTool[];
}

type Need = keyof AgentContext;
type Shared = keyof SharedServices;

/** One feature: what it reads of the agent and of other features, how it registers its routes, its MCP tools. */
export interface AgentModule<N extends Need = Need, U extends Shared = Shared, P extends Shared = Shared> {
  name: string;
  /** The members of the context it reads; its register sees only these. */
  needs: readonly N[];
  uses: readonly U[];
  /** The services its register returns (typed by `defineAgentModule`). */
  provides: readonly Shared[];
  /** Builds the services it provides before any module registers (a service it also serves routes about). */
  provide?(app: App, ctx: Pick<AgentContext, N>): Partial<SharedServices>;
  /** Whether it is served in this configuration (default: always). */
  enabled?: (config: Pick<AgentContext, 'config' | 'cloud'>) => boolean;
  // Method syntax: a list of modules holds each with its own needs (parameters compare bivariantly). None: the
  // module serves only tools.
  register?(
    app: App,
    ctx: Pick<AgentContext, N>,
    uses: Pick<SharedServices, U>,
  ): Pick<SharedServices, P> | undefined | Promise<Pick<SharedServices, P> | undefined>;
  /** The MCP tools it offers, run with the same view and services as its register. */
  tools?: readonly ModuleTool<Pick<AgentContext, N>, Pick<SharedServices, U>>[];
}

/** Any module, as the composition root lists them: its own needs, uses and provides. */
export type AnyAgentModule = AgentModule<Need, Shared, never>;

/** A feature module, its needs, uses and provides inferred from the lists it names. */
export function defineAgentModule<
  const N extends Need = never,
  const U extends Shared = never,
  const P extends Shared = never,
>(module: {
  name: string;
  needs: readonly N[];
  uses?: readonly U[];
  provides?: readonly P[];
  enabled?: AgentModule['enabled'];
  provide?: (app: App, ctx: Pick<AgentContext, N>) => Pick<SharedServices, P>;
  register?: AgentModule<N, U, P>['register'];
  // NoInfer: the needs and uses come from the lists alone, so a tool reading more than they name is refused.
  tools?: AgentModule<NoInfer<N>, NoInfer<U>, P>['tools'];
}): AgentModule<N, U, P> {
  return { uses: [], provides: [], ...module };
}

/** What a feature declaring `needs` reads of the agent: `ContextOf<typeof needs>`. */
export type ContextOf<T extends readonly Need[]> = Pick<AgentContext, T[number]>;

/** The register of a module that only declares routes. */
export const routesOnly =
  <N extends Need>(routes: (app: App, ctx: Pick<AgentContext, N>) => void) =>
  (app: App, ctx: Pick<AgentContext, N>): undefined => {
    routes(app, ctx);
  };

/** The context as one module sees it: the members it declared, getters kept (a cluster switch stays visible). */
function viewOf<N extends Need>(ctx: AgentContext, needs: readonly N[]): Pick<AgentContext, N> {
  const view = {} as Pick<AgentContext, N>;
  for (const key of needs)
    Object.defineProperty(view, key, Object.getOwnPropertyDescriptor(ctx, key) ?? { value: undefined });
  return view;
}

/** Puts tools in the order named, in place; a tool the order leaves out is a wiring mistake: it throws. */
function orderTools(tools: AgentTool[], order: readonly string[]): void {
  const rank = new Map(order.map((name, index) => [name, index]));
  const unnamed = tools.find((tool) => !rank.has(tool.name));
  if (unnamed) throw new Error(`tool ${unnamed.name} is missing from the tool order`);
  tools.sort((a, b) => (rank.get(a.name) as number) - (rank.get(b.name) as number));
}

/**
 * Registers each enabled module in order, handing it its declared part of the context and the services provided
 * so far, and gathers the modules' MCP tools in `toolOrder` (the `mcpTools` service). A module that uses a service
 * nothing before it provides is a wiring mistake: it throws.
 */
export async function registerModules(
  app: App,
  ctx: AgentContext,
  modules: readonly AnyAgentModule[],
  toolOrder: readonly string[] = [],
): Promise<void> {
  const enabled = modules.filter((module) => !module.enabled || module.enabled(ctx));
  const tools: AgentTool[] = [];
  const provided: Partial<SharedServices> = { mcpTools: tools };
  for (const module of enabled)
    if (module.provide) Object.assign(provided, module.provide(app, viewOf(ctx, module.needs)));
  for (const module of enabled) {
    const uses = {} as Record<Shared, unknown>;
    for (const name of module.uses) {
      if (!(name in provided))
        throw new Error(`module ${module.name} uses ${name}, which no module listed before it provides`);
      uses[name] = provided[name];
    }
    const view = viewOf(ctx, module.needs);
    const gives: Partial<SharedServices> | undefined = await module.register?.(
      app,
      view,
      uses as SharedServices,
    );
    Object.assign(provided, gives);
    for (const name of module.provides)
      if (!(name in provided))
        throw new Error(`module ${module.name} declares it provides ${name} but did not return it`);
    for (const tool of module.tools ?? []) tools.push(boundTool(tool, view, uses as SharedServices));
  }
  orderTools(tools, toolOrder);
}
