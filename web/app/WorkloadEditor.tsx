/*
 * WorkloadEditor.tsx: the workload text and its Run button. A plain textarea for now (another
 * issue replaces it with CodeMirror behind the same props); a parse or compile error is shown
 * with its line and column and linked to the field.
 */
import type { WorkloadError } from '../workload/errors';

export interface WorkloadEditorProps {
  text: string;
  onChange: (text: string) => void;
  onRun: () => void;
  error: WorkloadError | null;
  currentLine: number; // source line of the op at the cursor (0: none)
}

export function WorkloadEditor({ text, onChange, onRun, error, currentLine }: WorkloadEditorProps) {
  return (
    <div className="editor">
      <label htmlFor="workload" className="editor-label">
        Workload{' '}
        <span className="muted small">
          (Ctrl+Enter runs it; see the language reference in docs/workload-language.md)
        </span>
      </label>
      <textarea
        id="workload"
        value={text}
        spellCheck={false}
        wrap="off"
        rows={14}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            onRun();
          }
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'workload-error' : undefined}
      />
      <div className="editor-foot">
        <button type="button" className="primary" onClick={onRun}>
          Run workload
        </button>
        {currentLine > 0 && (
          <span className="small muted">The op at the cursor comes from line {currentLine}.</span>
        )}
      </div>
      {error && (
        <p id="workload-error" role="alert" className="error">
          Line {error.line}, column {error.col}: {error.message}
        </p>
      )}
    </div>
  );
}
