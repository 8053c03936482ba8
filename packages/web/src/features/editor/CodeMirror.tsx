import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, defaultHighlightStyle, foldGutter, syntaxHighlighting } from '@codemirror/language';
import { MergeView } from '@codemirror/merge';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { EditorState, type Extension } from '@codemirror/state';
import { oneDark } from '@codemirror/theme-one-dark';
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';

/** What both the editor and the diff show: YAML with line numbers, folding, search, and the page's theme. */
function yamlSetup(label: string): Extension[] {
  const dark = document.documentElement.classList.contains('dark');
  return [
    lineNumbers(),
    foldGutter(),
    bracketMatching(),
    highlightSelectionMatches(),
    yaml(),
    dark ? oneDark : syntaxHighlighting(defaultHighlightStyle),
    EditorView.contentAttributes.of({ 'aria-label': label }),
    EditorView.theme({
      '&': { fontSize: '12px', maxHeight: '60vh' },
      '.cm-scroller': { overflow: 'auto', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' },
      // The merge view's default marks (U+299A) are missing from common fonts and show as boxes.
      '.cm-collapsedLines:before': { content: '"↕ "' },
      '.cm-collapsedLines:after': { content: '""' },
    }),
  ];
}

/**
 * A YAML editor (CodeMirror 6). Tab indents (Esc then Tab leaves the editor, CodeMirror's rule for keyboard
 * users); Ctrl/Cmd-F searches. The text is read through `onChange`, so the page owns it.
 */
export function YamlEditor({
  initial,
  onChange,
  label,
}: {
  initial: string;
  onChange: (text: string) => void;
  label: string;
}) {
  const parent = useRef<HTMLDivElement>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  useEffect(() => {
    if (!parent.current) return;
    const view = new EditorView({
      parent: parent.current,
      state: EditorState.create({
        doc: initial,
        extensions: [
          ...yamlSetup(label),
          // The text is focusable (contenteditable) already; a tabindex says so to checkers such as axe, which
          // otherwise report its scrolling parent as a region keyboard users cannot reach. No tab stop is added.
          EditorView.contentAttributes.of({ tabindex: '0' }),
          history(),
          highlightActiveLine(),
          keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, indentWithTab]),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.focus();
    return () => view.destroy();
  }, [initial, label]);
  return <div ref={parent} className="rounded border border-slate-300 dark:border-slate-700" />;
}

/** The object now (left) and as the API server would store it after the apply (right), changes marked. */
export function YamlDiff({ before, after }: { before: string; after: string }) {
  const parent = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!parent.current) return;
    const readOnly = [EditorState.readOnly.of(true), EditorView.editable.of(false)];
    const view = new MergeView({
      parent: parent.current,
      a: { doc: before, extensions: [...yamlSetup('The object now'), ...readOnly] },
      b: { doc: after, extensions: [...yamlSetup('The object after the apply'), ...readOnly] },
      collapseUnchanged: { margin: 3, minSize: 6 },
      gutter: true,
    });
    return () => view.destroy();
  }, [before, after]);
  return <div ref={parent} className="rounded border border-slate-300 dark:border-slate-700" />;
}
