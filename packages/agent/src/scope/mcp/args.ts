import { callerPatternMaxChars } from '@binnacle/common';
import { z } from 'zod';

/** The arguments several tools share, each with the bounds and wording an assistant sees in the schema. */
export const namespace = z
  .string()
  .min(1)
  .max(63)
  .optional()
  .describe('a namespace; all you may see when absent');
export const requiredNamespace = z.string().min(1).max(63);
export const name = z.string().min(1).max(253);
export const kind = z
  .string()
  .min(1)
  .max(253)
  .describe('plural, singular, Kind or short name: pods, deploy, Service');
export const group = z.string().max(253).optional().describe('API group, when a kind name exists in several');
export const limit = (fallback: number, max: number) =>
  z
    .number()
    .int()
    .min(1)
    .max(max)
    .default(fallback)
    .describe(`at most this many (default ${fallback}, max ${max})`);
export const container = z.string().max(63).optional();
export const logSince = z.string().max(64).optional().describe('a duration back from now: 90s, 15m, 2h');
export const grep = z
  .string()
  .max(callerPatternMaxChars)
  .optional()
  .describe(
    'keep only lines matching this regular expression: RE2 syntax (no backreferences or lookaround), case-insensitive; a pattern that does not compile is matched as plain text',
  );

export const logLevel = z
  .enum(['error', 'warn', 'info', 'debug'])
  .optional()
  .describe(
    'keep only JSON or logfmt lines at this level or more severe (warn: warnings and errors); level read from level, lvl, severity or log.level, bunyan/pino numbers included; lines without a level are dropped',
  );

/** One namespace asked for, as the services take it: undefined means every namespace the caller may see. */
export const scope = (ns?: string) => (ns ? [ns] : undefined);
