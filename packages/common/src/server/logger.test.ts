import { describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import { loggableUrl, serverLogger } from './logger.ts';

const secrets = {
  authorization: 'Bearer bnp_secretpersonalaccesstoken',
  cookie: '__Host-binnacle_session=secret-session-id',
  identity: 'signed.identity.secret',
  impersonatedUser: 'binnacle:user:secret@example.com',
  impersonatedGroup: 'binnacle:idp:secret-group',
  setCookie: '__Host-binnacle_session=secret-new-session; Path=/; HttpOnly',
  token: 'secret-token',
  refreshToken: 'secret-refresh-token',
  clusterToken: 'bnc_secretclustertoken',
  authorizationCode: 'secret-authorization-code',
  state: 'secret-sign-in-state',
};

/** A logger of both servers writing to memory: each line parsed. */
function capture() {
  const lines: string[] = [];
  const log = serverLogger('info', { write: (line: string) => void lines.push(line) });
  return { log, lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const headers = {
  authorization: secrets.authorization,
  cookie: secrets.cookie,
  'x-binnacle-identity': secrets.identity,
  'impersonate-user': secrets.impersonatedUser,
  'impersonate-group': [secrets.impersonatedGroup, 'binnacle:role:owner'],
  'impersonate-uid': 'secret-uid',
  accept: 'application/json',
};

describe('the servers’ log', () => {
  it('redacts credentials of a logged request and answer, and fields named like secrets', () => {
    const { log, lines, parsed } = capture();
    log.warn(
      {
        req: { method: 'GET', url: '/api/resources/pods', headers },
        res: { statusCode: 200, headers: { 'set-cookie': secrets.setCookie } },
        session: { token: secrets.token, refresh_token: secrets.refreshToken },
        config: { clusterToken: secrets.clusterToken, port: 9280 },
      },
      'request',
    );
    const text = lines.join('');
    for (const [name, value] of Object.entries(secrets)) expect(text, name).not.toContain(value);
    expect(parsed()[0]).toMatchObject({
      req: {
        method: 'GET',
        url: '/api/resources/pods',
        headers: {
          authorization: '[redacted]',
          cookie: '[redacted]',
          'x-binnacle-identity': '[redacted]',
          'impersonate-user': '[redacted]',
          'impersonate-group': '[redacted]',
          'impersonate-uid': '[redacted]',
          accept: 'application/json',
        },
      },
      res: { statusCode: 200, headers: { 'set-cookie': '[redacted]' } },
      session: { token: '[redacted]', refresh_token: '[redacted]' },
      config: { clusterToken: '[redacted]', port: 9280 },
    });
  });

  it('keeps them out of the request log (--debug-events) of a real app', async () => {
    const { log, lines } = capture();
    const app = await createApp({
      logger: log,
      logRequests: true,
      openapi: { title: 'test', version: '0', description: 'test' },
    });
    try {
      app.get('/api/ping', () => ({ pong: true }));
      const answer = await app.inject({ method: 'GET', url: '/api/ping', headers });
      expect(answer.statusCode).toBe(200);
      const callback = `/api/ping?code=${secrets.authorizationCode}&state=${secrets.state}&iss=x`;
      expect((await app.inject({ method: 'GET', url: callback, headers })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
    expect(lines.length).toBeGreaterThanOrEqual(4); // incoming request, request completed; twice
    const text = lines.join('');
    for (const [name, value] of Object.entries(secrets)) expect(text, name).not.toContain(value);
    expect(text).toContain('/api/ping?code=[redacted]&state=[redacted]&iss=x');
  });

  it('censors the values of credential query parameters in a logged URL, keeping the rest', () => {
    expect(loggableUrl('/auth/callback?code=abc&state=def&iss=https%3A%2F%2Fidp')).toBe(
      '/auth/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fidp',
    );
    expect(loggableUrl('/x?C%6Fde=abc&Token=t&logout_token=l&namespace=shop')).toBe(
      '/x?C%6Fde=[redacted]&Token=[redacted]&logout_token=[redacted]&namespace=shop',
    );
    expect(loggableUrl('/api/resources/pods?namespace=shop&limit=5')).toBe(
      '/api/resources/pods?namespace=shop&limit=5',
    );
    expect(loggableUrl('/plain')).toBe('/plain');
    expect(loggableUrl('/bad?%E0%A4%A=1&code')).toBe('/bad?%E0%A4%A=1&code=[redacted]');
  });
});
