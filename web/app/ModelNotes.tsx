/*
 * ModelNotes.tsx: where the model simplifies the kernel, from docs/model-notes.md (bundled as
 * text at build time, so the page and the repository cannot disagree).
 */
import notes from '../../docs/model-notes.md?raw';
import { Markdown } from './markdown';

export default function ModelNotes() {
  return (
    <main id="main" className="prose">
      <Markdown source={notes} />
    </main>
  );
}
