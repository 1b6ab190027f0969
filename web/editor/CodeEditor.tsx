/*
 * CodeEditor.tsx: the workload editor (CodeMirror 6) behind the props of the playground's plain
 * textarea (app/WorkloadEditor.tsx), loaded on demand so pages without an editor do not pay for
 * it. Highlighting, completion, errors inline as you type (the caller's check runs the real
 * parser and compiler), Ctrl/Cmd-Enter runs, the op at the cursor is marked. Tab leaves the
 * editor (no keyboard trap): indentation is two spaces typed by hand.
 */
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching } from '@codemirror/language';
import { linter, lintGutter, lintKeymap } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { useLayoutEffect, useRef, useState } from 'react';
import type { WorkloadError } from '../workload/errors';
import type { WorkloadEditorProps } from '../app/WorkloadEditor';
import { workloadCompletions } from './complete';
import { currentLine, setCurrentLine } from './current-line';
import { workloadHighlighting } from './language';
import { diagnosticOf } from './lint';

export interface CodeEditorProps extends WorkloadEditorProps {
  /** The text's first error, or null; 'cancelled' when a newer check replaced this one. */
  check: (text: string) => Promise<WorkloadError | null | 'cancelled'>;
  /** Told of each check's result (the page shows it beside the editor). */
  onChecked?: (error: WorkloadError | null) => void;
}

const theme = EditorView.theme({
  '&': {
    background: 'var(--panel)',
    border: '1px solid var(--border)',
    borderRadius: '6px',
    fontSize: '0.875rem',
  },
  '&.cm-focused': { outline: '3px solid var(--accent)', outlineOffset: '2px' },
  // Capped so an imported trace of thousands of lines does not make the page endless; lines wrap,
  // so it only scrolls vertically, and the caret (the editable content inside) scrolls it.
  '.cm-scroller': {
    fontFamily: "ui-monospace, 'DejaVu Sans Mono', Menlo, monospace",
    minHeight: '14rem',
    maxHeight: '32rem',
  },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-gutters': {
    background: 'var(--panel)',
    color: 'var(--muted)',
    borderRight: '1px solid var(--border)',
  },
  '.cm-op-line': { background: 'var(--lit)', boxShadow: 'inset 3px 0 0 var(--lit-edge)' },
  '.cm-activeLineGutter': { background: 'transparent', color: 'var(--fg)' },
  '.cm-tooltip': { background: 'var(--bg)', color: 'var(--fg)', border: '1px solid var(--border)' },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': {
    background: 'var(--accent)',
    color: 'var(--bg)',
  },
  '.cm-diagnostic-error': { borderLeft: '4px solid var(--danger, #a4161a)' },
  // The error marks drawn in CSS: CodeMirror's own are data: SVG images, which the shipped CSP
  // (img-src falls back to 'self') refuses. A wavy underline, and a round dot in the gutter.
  '.cm-lintRange-error': {
    backgroundImage: 'none',
    textDecoration: 'underline wavy var(--danger, #a4161a)',
    textDecorationSkipInk: 'none',
    textUnderlineOffset: '3px',
  },
  '.cm-lint-marker-error': {
    content: 'normal',
    boxSizing: 'border-box',
    width: '0.75em',
    height: '0.75em',
    margin: '0.125em',
    borderRadius: '50%',
    background: 'var(--danger, #a4161a)',
  },
});

export default function CodeEditor({
  text,
  onChange,
  onRun,
  error,
  currentLine: line,
  check,
  onChecked,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ onChange, onRun, check, onChecked });
  const [lintError, setLintError] = useState<WorkloadError | null>(null);
  // Layout effects (here and below): they run as the render is committed, before the editor can
  // take another keystroke. A passive effect may run later (Preact runs it after the next paint,
  // or just before the component's next render): by then Ctrl+Enter would run the text before
  // the last keystrokes, and the text comparison below would see a newer document.
  useLayoutEffect(() => {
    latest.current = { onChange, onRun, check, onChecked };
  });

  useLayoutEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: text,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          history(),
          drawSelection(),
          bracketMatching(),
          closeBrackets(),
          workloadHighlighting(),
          autocompletion({ override: [workloadCompletions], icons: false }),
          lintGutter(),
          linter(
            async (ev) => {
              const doc = ev.state.doc;
              const r = await latest.current.check(doc.toString());
              if (r === 'cancelled') return [];
              setLintError(r);
              latest.current.onChecked?.(r);
              // The document may have moved on while the check ran: place nothing stale.
              if (ev.state.doc !== doc) return [];
              return r ? [diagnosticOf(doc, r)] : [];
            },
            { delay: 250 },
          ),
          currentLine(),
          EditorView.lineWrapping,
          keymap.of([
            { key: 'Mod-Enter', run: () => (latest.current.onRun(), true), preventDefault: true },
            ...closeBracketsKeymap,
            ...defaultKeymap,
            ...historyKeymap,
            ...completionKeymap,
            ...lintKeymap,
          ]),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) latest.current.onChange(u.state.doc.toString());
          }),
          EditorView.contentAttributes.of({
            'aria-labelledby': 'workload-label',
            'aria-describedby': 'workload-help',
            'aria-multiline': 'true',
            spellcheck: 'false',
          }),
          theme,
        ],
      }),
    });
    // A long workload scrolls inside the editor: the scroller is a tab stop of its own (arrows
    // and Page Up/Down scroll it), as keyboard users need (axe: scrollable-region-focusable).
    v.scrollDOM.tabIndex = 0;
    v.scrollDOM.setAttribute('role', 'region');
    v.scrollDOM.setAttribute('aria-label', 'Workload text (scrolls)');
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // The editor is made once; later texts arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Text set from outside (machine menu, import, a scenario) replaces the document as one
  // undoable change, so Ctrl+Z brings the previous text back. The editor's own edits come back
  // as `text` too and match the document, but only while nothing was typed since the render: run
  // later, this would take a keystroke's echo for outside text, put the older text back, which
  // is reported as an edit and re-rendered, and so on (a loop that hung typing under Preact).
  useLayoutEffect(() => {
    const v = view.current;
    if (!v || v.state.doc.toString() === text) return;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
  }, [text]);

  useLayoutEffect(() => {
    view.current?.dispatch({ effects: setCurrentLine.of(line) });
  }, [line]);

  const shown = lintError ?? error;
  return (
    <div className="editor code-editor">
      <span id="workload-label" className="editor-label">
        Workload
      </span>
      <p id="workload-help" className="small muted editor-help">
        Ctrl+Enter (⌘+Enter) runs it, Ctrl+Space completes, Tab leaves the editor; the language
        reference is docs/workload-language.md.
      </p>
      <div ref={host} className="cm-host" data-testid="workload-editor" />
      <div className="editor-foot">
        <button type="button" className="primary" onClick={onRun}>
          Run workload
        </button>
        {line > 0 && (
          <span className="small muted">The op at the cursor comes from line {line}.</span>
        )}
      </div>
      {shown && (
        <p
          id="workload-error"
          role="status"
          className="error"
          data-line={shown.line}
          data-col={shown.col}
        >
          Line {shown.line}, column {shown.col}: {shown.message}
        </p>
      )}
    </div>
  );
}
