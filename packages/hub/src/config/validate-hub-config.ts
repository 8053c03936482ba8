import { formatDuration } from '@binnacle/common';
import { UsageError } from '@binnacle/common/server';
import { validateBilling } from './billing-config.ts';
import type { HubConfig } from './hub-config.ts';
import { secretSettings } from './hub-options.ts';
import { validateNetwork } from './network-config.ts';
import { validateOidc } from './oidc-config.ts';
import { validateReplicas } from './replica-config.ts';
import { decodeKey, secretFile } from './secret-key.ts';

const minInactiveMs = 20 * 60_000;

/**
 * The checks that stop the hub at boot, each naming the setting: inactivity below 20 minutes, a public URL
 * the session cookie cannot work with, a half-configured break-glass account, unreadable secret files, several
 * replicas without what they must share.
 */
export function validateHubConfig(config: HubConfig, env: NodeJS.ProcessEnv): HubConfig {
  if (config.maxInactiveMs < minInactiveMs) {
    throw new UsageError(`maxInactive: ${formatDuration(config.maxInactiveMs)} is below the minimum of 20m`);
  }
  if (config.sessionLifetimeMs < config.maxInactiveMs) {
    throw new UsageError(
      `sessionLifetime: ${formatDuration(config.sessionLifetimeMs)} is shorter than maxInactive (${formatDuration(config.maxInactiveMs)})`,
    );
  }
  const publicUrl = new URL(config.publicUrl ?? `http://localhost:${config.port}`);
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(publicUrl.hostname);
  if (publicUrl.protocol !== 'https:' && !local) {
    throw new UsageError(
      `publicUrl: ${publicUrl.origin} must be https (plain http only for localhost): session cookies are Secure`,
    );
  }
  if (config.databaseUrl && !/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    throw new UsageError(
      'databaseUrl: only postgres:// URLs are supported (leave it out for the embedded SQLite)',
    );
  }
  // The variable, then a password file (a flag may name it), then a password written in the config file.
  const password =
    env[secretSettings.breakGlassPassword] ??
    (config.breakGlassPasswordFile
      ? secretFile(config.breakGlassPasswordFile, 'breakGlassPasswordFile')
      : undefined) ??
    config.breakGlassPassword;
  if (config.breakGlassEmail && !password) {
    throw new UsageError(
      'breakGlassEmail is set but no password: set BINNACLE_BREAK_GLASS_PASSWORD or breakGlassPasswordFile',
    );
  }
  if (password && !config.breakGlassEmail)
    throw new UsageError('a break-glass password is set but breakGlassEmail is not');
  if (password !== undefined && password.length < 12) {
    const setting =
      env[secretSettings.breakGlassPassword] !== undefined
        ? secretSettings.breakGlassPassword
        : config.breakGlassPasswordFile !== undefined
          ? 'breakGlassPasswordFile'
          : 'breakGlassPassword';
    throw new UsageError(`${setting}: the break-glass password must be at least 12 characters`);
  }
  if (config.breakGlassEmail && !/^[^\s@]+@[^\s@]+$/.test(config.breakGlassEmail)) {
    throw new UsageError(`breakGlassEmail: "${config.breakGlassEmail}" is not an e-mail address`);
  }
  const secretKey =
    env[secretSettings.secretKey] ??
    config.secretKey ??
    (config.secretKeyFile ? secretFile(config.secretKeyFile, 'secretKeyFile') : undefined);
  const replicaUrl = validateReplicas(config, secretKey);
  if (config.databaseUrl && !secretKey) {
    throw new UsageError(
      'secretKey: with PostgreSQL every hub replica needs the same key: set BINNACLE_SECRET_KEY or secretKeyFile',
    );
  }
  // Checked at boot too, so a short key is a config error (exit 2), not a failure after opening the database.
  if (secretKey) {
    decodeKey(
      secretKey,
      env[secretSettings.secretKey] !== undefined
        ? secretSettings.secretKey
        : config.secretKey !== undefined
          ? 'secretKey'
          : 'secretKeyFile',
    );
  }
  return validateBilling(
    validateOidc(
      validateNetwork({
        ...config,
        publicUrl: publicUrl.origin,
        breakGlassPassword: password,
        secretKey,
        replicaUrl,
      }),
      env,
    ),
    env,
  );
}
