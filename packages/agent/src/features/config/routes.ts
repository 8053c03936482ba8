import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import { AuditSettingsSchema, ConfigFileSchema, SettingsSchema } from '../../config/agent-config.ts';
import type { App } from '../../context.ts';
import {
  mergeSettings,
  readAuditSettings,
  readConfig,
  readSettings,
  replaceAuditSettings,
  replaceConfig,
} from '../../scope/settings.ts';
import type { ConfigContext } from './module.ts';

const Effective = Type.Object({}, { additionalProperties: true, description: 'The configuration in force' });
const ConfigView = Type.Object({
  file: ConfigFileSchema,
  effective: Effective,
  path: Type.String(),
  restartRequired: Type.Optional(Type.Boolean()),
});
const tags = ['config'];

export function configRoutes(app: App, ctx: ConfigContext): void {
  app.get(
    '/api/config',
    {
      schema: {
        tags,
        summary: 'The config file and the configuration in force',
        querystring: Query({}),
        response: { 200: ConfigView, ...errorResponses },
      },
    },
    () => readConfig(ctx),
  );

  app.put(
    '/api/config',
    {
      schema: {
        tags,
        summary: 'Replace the config file (takes effect at the next start)',
        querystring: Query({}),
        body: ConfigFileSchema,
        response: { 200: ConfigView, ...errorResponses },
      },
    },
    (request) => replaceConfig(ctx, request.body),
  );

  app.get(
    '/api/settings',
    {
      schema: {
        tags,
        summary: 'UI settings',
        querystring: Query({}),
        response: { 200: SettingsSchema, ...errorResponses },
      },
    },
    () => readSettings(ctx),
  );

  app.put(
    '/api/settings',
    {
      schema: {
        tags,
        summary: 'Update UI settings; fields left out keep their value',
        querystring: Query({}),
        body: SettingsSchema,
        response: { 200: SettingsSchema, ...errorResponses },
      },
    },
    (request) => mergeSettings(ctx, request.body),
  );

  app.get(
    '/api/settings/audit',
    {
      schema: {
        tags,
        summary: 'Best-practice audit settings',
        querystring: Query({}),
        response: { 200: AuditSettingsSchema, ...errorResponses },
      },
    },
    () => readAuditSettings(ctx),
  );

  app.put(
    '/api/settings/audit',
    {
      schema: {
        tags,
        summary: 'Replace the best-practice audit settings',
        querystring: Query({}),
        body: AuditSettingsSchema,
        response: { 200: AuditSettingsSchema, ...errorResponses },
      },
    },
    (request) => replaceAuditSettings(ctx, request.body),
  );
}
