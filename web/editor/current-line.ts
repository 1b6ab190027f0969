/*
 * current-line.ts: the source line of the op at the player's cursor, marked in the editor so the
 * reader sees which statement made what the views show.
 */
import { StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';

export const setCurrentLine = StateEffect.define<number>();

const mark = Decoration.line({ class: 'cm-op-line' });

const field = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    let out = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setCurrentLine)) continue;
      const n = e.value;
      out =
        n >= 1 && n <= tr.state.doc.lines
          ? Decoration.set([mark.range(tr.state.doc.line(n).from)])
          : Decoration.none;
    }
    return out;
  },
  provide: (f) => EditorView.decorations.from(f),
});

export function currentLine(): Extension {
  return field;
}
