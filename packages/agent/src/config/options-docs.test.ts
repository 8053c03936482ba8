import { readFileSync } from 'node:fs';
import { formatDefault } from '@binnacle/common/server';
import { flagTableDisagreements, helpDisagreements } from '@binnacle/testkit';
import { describe, expect, it } from 'vitest';
import { ConfigFileSchema, configDefaults } from './agent-config.ts';
import { agentHelp, agentOptions, desktopHelp, desktopOptions } from './options.ts';

const agentDoc = readFileSync(new URL('../../../../docs/agent.md', import.meta.url), 'utf8');

describe('the defaults have one source', () => {
  it("docs/agent.md's flag table agrees with the option specs and configDefaults", () => {
    const fileKeys = new Set(Object.keys(ConfigFileSchema.properties));
    expect(flagTableDisagreements(agentDoc, '## Flags', desktopOptions, configDefaults(), fileKeys)).toEqual(
      [],
    );
  });

  it('--help states the defaults the command runs with, from configDefaults or defaultText only', () => {
    expect(helpDisagreements(agentHelp(), agentOptions, configDefaults())).toEqual([]);
    expect(helpDisagreements(desktopHelp(), desktopOptions, configDefaults())).toEqual([]);
    expect(agentHelp()).toContain(
      '--timeline-retention DURATION how long the SQLite timeline keeps entries (default 168h)',
    );
  });

  it('a config-file field that names its default names the one --help shows', () => {
    const fields = ConfigFileSchema.properties as Record<string, { description?: string }>;
    const disagreeing = desktopOptions.filter((spec) => {
      const description = fields[spec.fileKey ?? spec.key]?.description ?? '';
      return (
        /default/.test(description) && !description.includes(`${formatDefault(spec, configDefaults())})`)
      );
    });
    expect(disagreeing.map((spec) => spec.flag)).toEqual([]);
  });
});
