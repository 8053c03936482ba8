import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDesktopConfig } from '../features/desktop/service.ts';
import {
  agentHelp,
  agentOptions,
  desktopHelp,
  desktopOptions,
  effectiveConfig,
  parseAgentArgs,
  parseDesktopArgs,
} from './options.ts';

describe('binnacle agent flags', () => {
  it('defaults to port 9280 on 127.0.0.1', () => {
    const config = effectiveConfig(parseAgentArgs([], {}).overrides, {});
    expect(config).toMatchObject({
      port: 9280,
      listenAddress: '127.0.0.1',
      noBrowser: false,
      debugEvents: false,
    });
  });

  it('takes flags over BINNACLE_* variables over the config file', () => {
    const env = { BINNACLE_PORT: '9400', BINNACLE_CONTEXT: 'from-env', BINNACLE_NO_BROWSER: 'true' };
    const { overrides } = parseAgentArgs(['--port', '9391', '--debug-events'], env);
    const config = effectiveConfig(overrides, { port: 9500, context: 'from-file', namespace: 'from-file' });
    expect(config).toMatchObject({
      port: 9391,
      context: 'from-env',
      namespace: 'from-file',
      noBrowser: true,
      debugEvents: true,
    });
  });

  it.each([
    [['--port', 'abc'], {}, '--port: "abc" is not a port number (1-65535)'],
    [['--port', '70000'], {}, '--port: "70000" is not a port number (1-65535)'],
    [['--prot', '1'], {}, "unknown flag '--prot'"],
    [['extra'], {}, "Unexpected argument 'extra'"],
    [[], { BINNACLE_PORT: '0' }, 'BINNACLE_PORT: "0" is not a port number (1-65535)'],
    [
      [],
      { BINNACLE_DEBUG_EVENTS: 'maybe' },
      'BINNACLE_DEBUG_EVENTS: "maybe" is not a boolean (true or false)',
    ],
    [
      ['--release-feed-url', 'file:///etc/passwd'],
      {},
      '--release-feed-url: "file:///etc/passwd" is not an http(s) URL',
    ],
  ])('rejects %j %j naming the problem', (argv, env, message) => {
    expect(() => parseAgentArgs(argv as string[], env)).toThrow(message);
  });

  it('converts timeline settings from flags and from the config file alike', () => {
    const fromFlags = effectiveConfig(
      parseAgentArgs(
        [
          '--timeline-storage',
          'sqlite',
          '--timeline-retention',
          '24h',
          '--timeline-max-size',
          '1Gi',
          '--history-limit',
          '500',
        ],
        {},
      ).overrides,
      {},
    );
    expect(fromFlags).toMatchObject({
      timelineStorage: 'sqlite',
      timelineRetentionMs: 86_400_000,
      timelineMaxBytes: 1024 ** 3,
      historyLimit: 500,
    });
    const fromFile = effectiveConfig(
      {},
      { timelineRetention: '1h30m', timelineMaxSize: '64Mi', maxEventStreams: 7 },
    );
    expect(fromFile).toMatchObject({
      timelineRetentionMs: 5_400_000,
      timelineMaxBytes: 64 * 1024 ** 2,
      maxEventStreams: 7,
    });
    expect(() => effectiveConfig({}, { timelineRetention: '7d' })).toThrow(
      'config.json timelineRetention: "7d" is not a duration',
    );
  });

  it('reads the metrics history settings and keeps the poll interval within 1s to 1h', () => {
    const { overrides } = parseAgentArgs(['--metrics-poll-interval', '15s', '--metrics-history', '240'], {});
    expect(effectiveConfig(overrides, {})).toMatchObject({ metricsPollMs: 15_000, metricsHistory: 240 });
    expect(effectiveConfig({}, {})).toMatchObject({ metricsPollMs: 30_000, metricsHistory: 120 });
    expect(() => parseAgentArgs(['--metrics-poll-interval', '500ms'], {})).toThrow(
      '--metrics-poll-interval: "500ms" is outside 1s to 1h',
    );
    expect(() => effectiveConfig({}, { metricsHistory: 1 })).toThrow(/metricsHistory/);
  });

  it('documents every flag and its variable in --help', () => {
    const help = agentHelp();
    for (const option of agentOptions) {
      expect(help).toContain(`--${option.flag}`);
      expect(help).toContain(option.env);
    }
  });

  it('documents every flag and its variable in docs/agent.md', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../../../docs/agent.md'), 'utf8');
    for (const option of agentOptions) {
      expect(doc).toContain(`\`--${option.flag}`);
      expect(doc).toContain(`\`${option.env}\``);
    }
  });
});

describe('binnacle desktop flags', () => {
  it("takes the agent's flags and its own, with desktop mode on", () => {
    const { overrides } = parseDesktopArgs(
      ['--port', '9400', '--downloads-dir', '/tmp/dl', '--update-url', 'https://example.com/m.json'],
      {},
    );
    expect(effectiveConfig(overrides, {})).toMatchObject({
      desktop: true,
      port: 9400,
      downloadsDir: '/tmp/dl',
      updateUrl: 'https://example.com/m.json',
    });
    expect(effectiveConfig(parseAgentArgs([], {}).overrides, {}).desktop).toBe(false);
    expect(() => parseAgentArgs(['--downloads-dir', '/tmp'], {})).toThrow("unknown flag '--downloads-dir'");
    expect(() => parseDesktopArgs(['--update-url', 'ftp://x'], {})).toThrow(
      '--update-url: "ftp://x" is not an http(s) URL',
    );
  });

  it('refuses a listener beyond loopback and cloud mode', () => {
    const config = (argv: string[]) => effectiveConfig(parseDesktopArgs(argv, {}).overrides, {});
    for (const address of ['127.0.0.1', '::1', 'localhost'])
      expect(() => checkDesktopConfig(config(['--listen-address', address]))).not.toThrow();
    expect(() => checkDesktopConfig(config(['--listen-address', '0.0.0.0']))).toThrow(
      'desktop mode listens on loopback only: --listen-address 0.0.0.0 is not 127.0.0.1, ::1 or localhost',
    );
    expect(() =>
      checkDesktopConfig(config(['--cloud-url', 'https://hub.example.com', '--cluster-token', 'bnc_x'])),
    ).toThrow(/--cloud-url is not allowed/);
    // Not desktop mode: nothing to refuse.
    expect(() =>
      checkDesktopConfig(effectiveConfig(parseAgentArgs(['--listen-address', '0.0.0.0'], {}).overrides, {})),
    ).not.toThrow();
  });

  it('documents every flag in --help and docs/desktop.md', () => {
    const help = desktopHelp();
    const doc = readFileSync(resolve(import.meta.dirname, '../../../../docs/desktop.md'), 'utf8');
    for (const option of desktopOptions) {
      expect(help).toContain(`--${option.flag}`);
      expect(help).toContain(option.env);
    }
    for (const option of desktopOptions.slice(agentOptions.length)) {
      expect(doc).toContain(`\`--${option.flag}`);
      expect(doc).toContain(`\`${option.env}\``);
    }
  });
});
