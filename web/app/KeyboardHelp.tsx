/*
 * KeyboardHelp.tsx: every command with its keys, read from the definitions (so it lists each
 * command once). The page (#/keys) lists every group and where it works; the `?` dialog lists
 * the groups that work where you are (and links to the page), so a key is never shown twice with
 * two meanings (PageDown is "next step" in a lesson and "next beat" when presenting).
 */
import { useEffect, useRef } from 'react';
import { useActions, useRegistryVersion } from '../actions/context';
import { ACTION_DEFS, SCREENS, type ActionGroup } from '../actions/definitions';
import { formatChord } from '../actions/keys';

const GROUPS: [ActionGroup, string][] = [
  ['lesson', 'Lesson'],
  ['presenter', 'Presenting a lesson'],
  ['timeline', 'Timeline'],
  ['machine', 'Machine'],
  ['view', 'Views'],
  ['app', 'Site'],
];

const SCREEN_NAMES: Record<string, string> = {
  playground: 'the playground',
  embed: 'embedded players',
  lesson: 'lessons',
  presenter: 'presenter mode',
  notes: 'the speaker notes window',
};

/** Where a group's keys work, in words: "in the playground and lessons". */
function whereLive(g: ActionGroup): string {
  const screens = Object.entries(SCREENS)
    .filter(([, groups]) => groups.includes(g))
    .map(([s]) => SCREEN_NAMES[s] ?? s);
  if (screens.length === Object.keys(SCREENS).length) return 'on every page';
  return `in ${screens.slice(0, -1).join(', ')}${screens.length > 1 ? ' and ' : ''}${screens.at(-1) ?? ''}`;
}

export function KeyList({ liveOnly = false }: { liveOnly?: boolean }) {
  const registry = useActions();
  useRegistryVersion();
  const live = (g: ActionGroup) => registry.list().some((a) => a.group === g);
  // Stable: the groups that work on this page first, each list in its own order.
  const groups = liveOnly
    ? GROUPS.filter(([g]) => live(g))
    : [...GROUPS.filter(([g]) => live(g)), ...GROUPS.filter(([g]) => !live(g))];
  return (
    <div className="key-list">
      {groups.map(([g, title]) => {
        const rows = ACTION_DEFS.filter((a) => a.group === g);
        if (rows.length === 0) return null;
        return (
          <table key={g} data-group={g}>
            <caption>
              {title}
              <span className="muted small"> ({whereLive(g)})</span>
            </caption>
            <tbody>
              {rows.map((a) => (
                <tr key={a.id} data-action={a.id}>
                  <th scope="row">{a.label}</th>
                  <td>
                    {a.keys && a.keys.length > 0 ? (
                      a.keys.map((k) => <kbd key={k}>{formatChord(k)}</kbd>)
                    ) : (
                      <span className="muted">button</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        );
      })}
      <p className="small muted">
        In the memory map: arrow keys inspect frames, Page Up and Page Down pan, + and − zoom, 0
        shows all, Esc drops the cursor. Keys do nothing while you type in the workload editor.
      </p>
    </div>
  );
}

export function KeyboardHelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="help-dialog"
      aria-labelledby="keys-h"
      onClose={onClose}
      onCancel={onClose}
    >
      <h2 id="keys-h">Keyboard</h2>
      {open && <KeyList liveOnly />}
      <p className="small">
        <a href="#/keys" onClick={onClose}>
          Every shortcut of the site
        </a>
      </p>
      <form method="dialog">
        <button type="submit" autoFocus>
          Close
        </button>
      </form>
    </dialog>
  );
}

export default function KeyboardPage() {
  return (
    <main id="main" className="prose">
      <h1>Keyboard</h1>
      <p>
        Everything on Buddyscope can be done from the keyboard. Press ? anywhere to see this list.
      </p>
      <KeyList />
    </main>
  );
}
