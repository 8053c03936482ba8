/**
 * One feature of a server (docs/adr/0095-hub-services-layer-and-feature-modules.md): the keys of the server's
 * context it needs, and what it registers with them (routes, hooks, MCP tools, background work stopped on the
 * app's close). The server's composition root lists the modules; the server only loops over them, handing
 * each exactly what it declared, so a feature reaches nothing it did not name.
 */
export interface FeatureModule<App, Context, Needs extends keyof Context = keyof Context> {
  readonly name: string;
  readonly needs: readonly Needs[];
  /** A property, not a method: its parameter is then checked strictly, so it cannot take more than `needs`. */
  readonly register: (app: App, deps: Pick<Context, Needs>) => void | Promise<void>;
}

/**
 * The module declarer of one server: `const hubModule = modulesFor<HubApp, HubContext>()`, then
 * `hubModule({ name, needs: ['database', 'clock'], register })`. `register` is checked against the keys
 * named in `needs`: a feature that takes more than it declares does not compile.
 */
export const modulesFor =
  <App, Context>() =>
  <const Needs extends keyof Context>(module: {
    readonly name: string;
    readonly needs: readonly Needs[];
    // Needs is read from `needs` alone: `register` is checked against it, never widens it.
    readonly register: (app: App, deps: Pick<Context, NoInfer<Needs>>) => void | Promise<void>;
  }): FeatureModule<App, Context, Needs> =>
    module;

/**
 * The part of the context a module declared: a new object, so a key it did not name is not there at all. Each
 * key is copied as the context defines it, so a getter stays live rather than being read once.
 */
function neededBy<Context, Needs extends keyof Context>(
  context: Context,
  needs: readonly Needs[],
): Pick<Context, Needs> {
  const deps = {} as Pick<Context, Needs>;
  for (const key of needs)
    Object.defineProperty(
      deps,
      key,
      Object.getOwnPropertyDescriptor(context, key) ?? { value: undefined, enumerable: true },
    );
  return deps;
}

/** Registers the modules in order, each with only what it declared. */
export async function registerModules<App, Context>(
  app: App,
  context: Context,
  modules: readonly FeatureModule<App, Context>[],
): Promise<void> {
  for (const module of modules) await module.register(app, neededBy(context, module.needs));
}
