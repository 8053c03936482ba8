import { describe, expect, it } from 'vitest';
import { secretAgentFlags } from '../../config/options.ts';
import { redactedArgv } from './profiles.ts';

describe('the command line the agent reports about itself', () => {
  it('redacts the values of credential flags in both forms and keeps everything else', () => {
    const argv = [
      'node',
      'binnacle',
      'agent',
      '--cluster-token=bnc_secret',
      '--metricsdb-headers',
      'Authorization=Bearer abc',
      '--metricsdb-url=http://prom:9090',
      '--port',
      '9280',
    ];
    expect(redactedArgv(argv, secretAgentFlags)).toEqual([
      'node',
      'binnacle',
      'agent',
      '--cluster-token=<redacted>',
      '--metricsdb-headers',
      '<redacted>',
      '--metricsdb-url=http://prom:9090',
      '--port',
      '9280',
    ]);
  });

  it('marks the token and the metrics-store headers as credentials', () => {
    expect([...secretAgentFlags].sort()).toEqual(['cluster-token', 'metricsdb-headers']);
  });
});
