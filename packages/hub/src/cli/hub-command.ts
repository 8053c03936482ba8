import { exitOnCrash, exitOnSignal, optionsHelp, serverLogger, UsageError } from '@binnacle/common/server';
import { type HubConfig, hubDefaults, loadHubConfig } from '../config/hub-config.ts';
import { hubOptions } from '../config/hub-options.ts';
import { oidcRedirectUri } from '../config/oidc-config.ts';
import { redisLocation } from '../config/replica-config.ts';
import { DatabaseError } from '../db/database.ts';
import { createHub, hubVersion } from '../hub.ts';

export function hubHelp(): string {
  return `usage: binnacle hub [flags]

Serves the Binnacle hub: organizations, sign-in, personal access tokens and clusters, on
http://<listen-address>:<port>. Settings come from flags, then BINNACLE_* variables, then the --config file.
Secrets come from variables or files only: BINNACLE_BREAK_GLASS_PASSWORD or --break-glass-password-file,
BINNACLE_SECRET_KEY or --secret-key-file, BINNACLE_STRIPE_SECRET_KEY or --stripe-secret-key-file,
BINNACLE_STRIPE_WEBHOOK_SECRET or --stripe-webhook-secret-file (billing, docs/billing.md).
Several replicas behind a load balancer: --database-url (PostgreSQL), --redis-url, the same secret key on
each, and --replica-url when listening on 0.0.0.0 (docs/hub.md).

flags:
${optionsHelp(hubOptions, hubDefaults())}

docs: docs/hub.md
`;
}

const fail = (message: string, code: number) => {
  process.stderr.write(`binnacle hub: ${message}\n`);
  return code;
};

/** `binnacle hub`: validates the configuration, opens and migrates the database, serves until a signal. */
export async function runHub(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let config: HubConfig;
  try {
    const loaded = loadHubConfig(argv, env);
    if (loaded.help) {
      process.stdout.write(hubHelp());
      return 0;
    }
    config = loaded.config;
  } catch (error) {
    if (error instanceof UsageError)
      return fail(`${error.message}\nrun "binnacle hub --help" for the settings`, 2);
    throw error;
  }
  const log = serverLogger(config.debugRequests ? 'info' : 'warn');
  exitOnCrash('hub', log);
  let hub: Awaited<ReturnType<typeof createHub>>;
  try {
    hub = await createHub(config, { log });
  } catch (error) {
    if (error instanceof DatabaseError || error instanceof UsageError) return fail(error.message, 1);
    throw error;
  }
  try {
    await hub.listen();
  } catch (error) {
    await hub.close();
    return fail(`cannot listen on ${config.listenAddress}:${config.port}: ${(error as Error).message}`, 1);
  }
  process.stderr.write(
    `binnacle hub ${hubVersion}: serving ${config.publicUrl} on ${config.listenAddress}:${config.port} (${hub.ctx.database.dialect} ${hub.ctx.database.location}); break-glass ${hub.ctx.breakGlass.admin.enabled ? 'on' : 'off'}\n`,
  );
  if (config.redisUrl)
    process.stderr.write(
      `binnacle hub: one of several replicas, sharing ${redisLocation(config.redisUrl)}; the others reach this one at ${config.replicaUrl}\n`,
    );
  // The IdP compares the redirect URI character for character; an IdP client registered for 127.0.0.1 while the
  // hub serves localhost fails at sign-in with a message that does not say why.
  if (config.oidcIssuer)
    process.stderr.write(
      `binnacle hub: OIDC sign-in at ${config.oidcIssuer} as client ${config.oidcClientId}; the IdP client must list the redirect URI ${oidcRedirectUri(config.publicUrl)} exactly\n`,
    );
  return exitOnSignal('hub', () => hub.close());
}
