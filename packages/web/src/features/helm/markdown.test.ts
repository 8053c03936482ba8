import { describe, expect, it } from 'vitest';
import { parseMarkdown } from './markdown.ts';

const text = (t: string) => ({ type: 'text', text: t });
const paragraph = (...children: unknown[]) => ({ type: 'paragraph', children });

describe("reading a chart's README", () => {
  it('finds headings, paragraphs, nested and ordered lists, fenced code, quotes and tables', () => {
    const readme = [
      '# billing',
      '',
      'The demo billing service:',
      'a Deployment and a Service.',
      '',
      '- one',
      '  - nested',
      '',
      '3. third',
      '',
      '```yaml',
      'config:',
      '  currency: USD',
      '```',
      '',
      '> a note',
      '',
      '| value | default |',
      '|---|:---:|',
      '| `replicaCount` | `2` |',
      '| `a\\|b` | x |',
      '',
      '---',
    ].join('\n');
    expect(parseMarkdown(readme)).toEqual([
      { type: 'heading', level: 1, children: [text('billing')] },
      paragraph(text('The demo billing service:\na Deployment and a Service.')),
      {
        type: 'list',
        ordered: false,
        items: [
          [paragraph(text('one')), { type: 'list', ordered: false, items: [[paragraph(text('nested'))]] }],
        ],
      },
      { type: 'list', ordered: true, start: 3, items: [[paragraph(text('third'))]] },
      { type: 'code', text: 'config:\n  currency: USD' },
      { type: 'quote', children: [paragraph(text('a note'))] },
      {
        type: 'table',
        head: [[text('value')], [text('default')]],
        rows: [
          [[{ type: 'code', text: 'replicaCount' }], [{ type: 'code', text: '2' }]],
          [[{ type: 'code', text: 'a|b' }], [text('x')]],
        ],
      },
    ]);
  });

  it('keeps an unclosed fence to the end and a pipe line without a rule as text', () => {
    expect(parseMarkdown('| not a table\n\n```\ncode')).toEqual([
      paragraph(text('| not a table')),
      { type: 'code', text: 'code' },
    ]);
  });

  it('reads code, strong and emphasised text and web links inline, and drops other link targets', () => {
    expect(
      parseMarkdown(
        'Set `image.tag`, **not _this_** [docs](https://helm.sh) or [x](javascript:alert(1)) a\\*b',
      ),
    ).toEqual([
      paragraph(
        text('Set '),
        { type: 'code', text: 'image.tag' },
        text(', '),
        { type: 'strong', children: [text('not '), { type: 'em', children: [text('this')] }] },
        text(' '),
        { type: 'link', href: 'https://helm.sh', children: [text('docs')] },
        text(' or '),
        text('x'),
        text(' a'),
        text('*'),
        text('b'),
      ),
    ]);
  });

  it('leaves HTML as text, shows an image by its words and decodes character references', () => {
    expect(
      parseMarkdown('![build](https://ci.example/badge.svg) <b>bold</b> &amp; &#x3C;\n\n<div>raw</div>'),
    ).toEqual([
      paragraph(text('build'), text(' '), text('<b>'), text('bold'), text('</b>'), text(' & <')),
      paragraph(text('<div>raw</div>')),
    ]);
  });
});
