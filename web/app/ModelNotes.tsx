/*
 * ModelNotes.tsx: where the model simplifies the kernel, from docs/model-notes.md (parsed at build
 * time, so the page and the repository cannot disagree).
 */
import notes from '../../docs/model-notes.md?md';
import { MdBlocks } from '../markdown/Md';

export default function ModelNotes() {
  return (
    <main id="main" className="prose">
      <MdBlocks tree={notes} />
    </main>
  );
}
