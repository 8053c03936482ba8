import { describe, expect, it } from 'vitest';
import type { AgentContext } from '../context.ts';
import { requireHubOwner } from './hub-role.ts';

const cloud = { cloud: {} as NonNullable<AgentContext['cloud']> };
const person = (...groups: string[]) => ({ user: 'binnacle:user:ada@example.com', groups });

describe('requireHubOwner', () => {
  it('lets only owners through in cloud mode, and fails closed without a forwarded identity', () => {
    expect(() => requireHubOwner(cloud, person('binnacle:role:owner', 'binnacle:idp:/ops'))).not.toThrow();
    expect(() => requireHubOwner(cloud, person('binnacle:role:member'))).toThrow(
      expect.objectContaining({
        code: 'cloud_role_insufficient',
        status: 403,
        message: expect.stringContaining('your role is member'),
      }),
    );
    expect(() => requireHubOwner(cloud, person('binnacle:idp:owner'))).toThrow(
      expect.objectContaining({
        code: 'cloud_role_insufficient',
        message: expect.stringContaining('no hub role'),
      }),
    );
    expect(() => requireHubOwner(cloud, undefined)).toThrow(
      expect.objectContaining({ code: 'cloud_role_insufficient' }),
    );
  });

  it('checks nothing outside cloud mode, where there are no hub roles', () => {
    expect(() => requireHubOwner({}, undefined)).not.toThrow();
    expect(() => requireHubOwner({}, person('binnacle:role:viewer'))).not.toThrow();
  });
});
