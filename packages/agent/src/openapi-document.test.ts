import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  durationPattern,
  stepPattern,
  timeOrDurationPattern,
  unixTimeOrDurationPattern,
} from '@binnacle/common';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, createAgent } from './agent.ts';
import { configDefaults } from './config/agent-config.ts';
import { offlineTarget } from './openapi-document.ts';

interface Parameter {
  in: string;
  name: string;
  description?: string;
  schema?: { pattern?: string };
}
interface Operation {
  parameters?: Parameter[];
  responses?: Record<string, unknown>;
  requestBody?: { content?: Record<string, unknown> };
}
type Operations = Record<string, Record<string, Operation>>;

let agent: Agent;
let paths: Operations;
beforeAll(async () => {
  agent = await createAgent(
    // As scripts/api-docs.ts builds the document: the defaults, so sign-in is off.
    { ...configDefaults(), dataDir: join(tmpdir(), 'binnacle-openapi-test') },
    offlineTarget,
    pino({ level: 'silent' }),
  );
  await agent.app.ready();
  paths = (agent.app.swagger() as unknown as { paths: Operations }).paths;
});
afterAll(() => agent?.close());

/** Query parameters that carry a duration or a time, by name or by what their description says. */
const timeNames = new Set(['since', 'until', 'window', 'range', 'timeout', 'step', 'time', 'start', 'end']);
const shared = [durationPattern, timeOrDurationPattern, stepPattern, unixTimeOrDurationPattern];

const timeParameters = () =>
  Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      (operation.parameters ?? [])
        .filter(
          (p) =>
            p.in === 'query' && (timeNames.has(p.name) || /hours form|duration/i.test(p.description ?? '')),
        )
        .map((p) => ({ label: `${method.toUpperCase()} ${path} ?${p.name}`, parameter: p })),
    ),
  );

describe('durations and times in the OpenAPI document (ADR 0015 §7)', () => {
  it('carry the pattern their parser uses, the same for every route', () => {
    const found = timeParameters();
    expect(found.map((f) => f.label)).toEqual(
      expect.arrayContaining([
        'GET /api/cost/summary ?window',
        'GET /api/metricsdb/cluster ?range',
        'GET /api/metricsdb/rightsizing/{kind}/{namespace}/{name} ?window',
        'GET /api/metricsdb/query ?step',
        'GET /api/metricsdb/query ?time',
        'GET /api/changes ?since',
      ]),
    );
    for (const { label, parameter } of found) expect(shared, label).toContain(parameter.schema?.pattern);
  });

  it.each([
    ['/api/cost/summary?window=7d', 'days are not accepted: write 168h'],
    ['/api/metricsdb/cluster?range=1w', 'query parameter "range": "1w" is not a duration'],
    ['/api/metricsdb/rightsizing/Deployment/shop/web?window=soon', 'is not a duration'],
    ['/api/metricsdb/query?query=up&step=fast', 'or seconds'],
    ['/api/metricsdb/query?query=up&time=yesterday', 'or Unix seconds'],
  ])('refuses what the document refuses, in the parser words: %s', async (url, words) => {
    const answer = await agent.app.inject({ url });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ code: 'invalid_request', error: expect.stringContaining(words) });
  });

  it.each([
    '/api/cost/summary?window=1h30m',
    '/api/metricsdb/cluster?range=90m',
    '/api/metricsdb/rightsizing/Deployment/shop/web?window=336h',
    '/api/metricsdb/query?query=up&start=1795000000&end=2026-11-20T10:00:00Z&step=30',
    '/api/metricsdb/query?query=up&time=90m&timeout=5s',
  ])('takes what the document takes past the schema: %s', async (url) => {
    const answer = await agent.app.inject({ url });
    // No cluster behind this agent: what answers is the missing cluster or store, not the parameters.
    expect(answer.json().error ?? '', url).not.toMatch(/query parameter|is not a|must be/);
  });
});

describe("the agent's own sign-in in the OpenAPI document", () => {
  it('lists /auth/login, /auth/callback, /auth/logout and /auth/backchannel-logout with their methods and answers, sign-in off', () => {
    const signIn = Object.fromEntries(
      Object.entries(paths)
        .filter(([path]) => path.startsWith('/auth/'))
        .map(([path, item]) => [path, Object.keys(item).filter((key) => key !== 'parameters')]),
    );
    expect(signIn).toEqual({
      '/auth/login': ['get'],
      '/auth/callback': ['get'],
      '/auth/logout': ['get'],
      '/auth/backchannel-logout': ['post'],
    });
    for (const path of ['/auth/login', '/auth/callback', '/auth/logout'])
      expect(Object.keys(paths[path]?.get?.responses ?? {}), path).toEqual(['302', '4XX', '5XX']);
    const backchannel = paths['/auth/backchannel-logout']?.post;
    expect(Object.keys(backchannel?.responses ?? {})).toEqual(['200', '4XX', '5XX']);
    expect(Object.keys(backchannel?.requestBody?.content ?? {})).toContain(
      'application/x-www-form-urlencoded',
    );
  });

  it.each([
    ['GET', '/auth/login'],
    ['GET', '/auth/callback?code=x&state=y'],
    ['GET', '/auth/logout'],
  ])('answers %s %s 404 route_not_found while sign-in is off', async (method, url) => {
    const answer = await agent.app.inject({ method: method as 'GET', url });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({
      error: expect.stringContaining('--auth-mode oidc'),
      code: 'route_not_found',
    });
  });

  it('answers the back-channel logout 404 while sign-in is off', async () => {
    const answer = await agent.app.inject({
      method: 'POST',
      url: '/auth/backchannel-logout',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'logout_token=a.b.c',
    });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ code: 'route_not_found' });
  });
});
