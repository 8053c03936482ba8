import { describe, expect, it } from 'vitest';
import { modulesFor, registerModules } from './modules.ts';

interface Context {
  clock: { now(): number };
  secret: string;
  log: string[];
}

const defineModule = modulesFor<string[], Context>();

describe('feature modules', () => {
  it('hands each module only the keys it declared, in the order the root lists them', async () => {
    const seen: Record<string, string[]> = {};
    const modules = [
      defineModule({
        name: 'first',
        needs: ['log'],
        register(app, deps) {
          app.push('first');
          seen.first = Object.keys(deps);
        },
      }),
      defineModule({
        name: 'second',
        needs: ['clock', 'log'],
        register(app, deps) {
          app.push(`second at ${deps.clock.now()}`);
          seen.second = Object.keys(deps);
          return Promise.resolve();
        },
      }),
    ];
    const app: string[] = [];
    await registerModules(app, { clock: { now: () => 7 }, secret: 'never handed out', log: [] }, modules);
    expect(app).toEqual(['first', 'second at 7']);
    expect(seen).toEqual({ first: ['log'], second: ['clock', 'log'] });
  });

  it('keeps a getter of the context live in what a module is handed', async () => {
    let secret = 'first';
    const context = {
      clock: { now: () => 0 },
      get secret() {
        return secret;
      },
      log: [],
    };
    let handed: Pick<Context, 'secret'> | undefined;
    await registerModules([], context, [
      defineModule({
        name: 'reader',
        needs: ['secret'],
        register(_app, deps) {
          handed = deps;
        },
      }),
    ]);
    secret = 'second';
    expect(handed?.secret).toBe('second');
  });

  it('refuses a module that takes more than it declared: at compile time, and the key is absent at run time', async () => {
    let secret: string | undefined = 'unset';
    const greedy = defineModule({
      name: 'greedy',
      needs: ['log'],
      // @ts-expect-error: `secret` is not among the needs
      register(_app, deps: Pick<Context, 'log' | 'secret'>) {
        secret = deps.secret;
      },
    });
    await registerModules([], { clock: { now: () => 0 }, secret: 'never handed out', log: [] }, [greedy]);
    expect(secret).toBeUndefined();
  });
});
