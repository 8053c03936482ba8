import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogueMarkdown } from '../../scope/audit/checks/catalogue.ts';

const docs = join(import.meta.dirname, '../../../../../docs/audit.md');
const marker =
  '<!-- generated from packages/agent/src/scope/audit/checks (catalogueMarkdown); a test fails when they differ -->\n';

describe('docs/audit.md', () => {
  it('lists exactly the checks the code has (regenerate its table from catalogueMarkdown() when this fails)', () => {
    const text = readFileSync(docs, 'utf8');
    expect(text).toContain(marker);
    expect(text.slice(text.indexOf(marker) + marker.length).trimEnd()).toBe(catalogueMarkdown().trimEnd());
  });
});
