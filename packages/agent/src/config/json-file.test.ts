import { describe, expect, it } from 'vitest';
import { AuditSettingsSchema, ConfigFileSchema } from './agent-config.ts';
import { firstIssue } from './json-file.ts';

describe('firstIssue', () => {
  it('says what a duration should look like, naming the field and the value', () => {
    expect(firstIssue(ConfigFileSchema, { timelineRetention: '7d' })).toBe(
      'field "timelineRetention": "7d" is not a duration like 168h, 20m, 90s or 1h30m (days are not accepted: write 168h)',
    );
  });

  it('names a namespace entry that is not a DNS-1123 label', () => {
    expect(firstIssue(AuditSettingsSchema, { ignoredNamespaces: ['ok', 'Not_OK'], disabledChecks: [] })).toBe(
      'field "ignoredNamespaces.1": "Not_OK" is not a DNS-1123 label (lowercase letters, digits and "-", starting and ending with a letter or digit)',
    );
  });

  it('keeps the schema words for other patterns', () => {
    expect(firstIssue(ConfigFileSchema, { releaseFeedUrl: 'ftp://x' })).toBe(
      'field "releaseFeedUrl" must match pattern "^https?://"',
    );
  });
});
