// The keyboard help lists every defined command once, whatever is mounted, and no key means two
// things on one page.
import { createElement } from 'react';
import { renderToStaticMarkup } from './static-markup';
import { describe, expect, it } from 'vitest';
import { ActionsContext } from '../actions/context';
import { A, ACTION_DEFS, SCREENS } from '../actions/definitions';
import { ActionRegistry } from '../actions/registry';
import { KeyList } from './KeyboardHelp';

/** The command ids and row labels the help renders, in order. */
function rendered(registry: ActionRegistry): { ids: string[]; labels: string[] } {
  const html = renderToStaticMarkup(
    createElement(ActionsContext.Provider, { value: registry }, createElement(KeyList)),
  );
  const ids = [...html.matchAll(/<tr data-action="([^"]+)"><th scope="row">([^<]*)<\/th>/g)];
  return { ids: ids.map((m) => m[1] ?? ''), labels: ids.map((m) => m[2] ?? '') };
}

const unescape = (s: string) => s.replace(/&#x27;/g, "'").replace(/&amp;/g, '&');

describe('keyboard help', () => {
  it('lists every defined command exactly once, with nothing mounted', () => {
    const { ids, labels } = rendered(new ActionRegistry());
    expect([...ids].sort()).toEqual(ACTION_DEFS.map((d) => d.id).sort());
    expect(labels.map(unescape).sort()).toEqual(ACTION_DEFS.map((d) => d.label).sort());
  });

  it('lists them once too when some are mounted, those of this page first', () => {
    const r = new ActionRegistry();
    r.register({ id: A.presenterNext, label: 'x', group: 'presenter', run: () => {} });
    const { ids } = rendered(r);
    expect(ids).toHaveLength(ACTION_DEFS.length);
    expect(new Set(ids).size).toBe(ACTION_DEFS.length);
    expect(ids[0]).toBe(A.presenterNext);
  });

  it('the ? dialog lists only the groups live here: no lesson keys while presenting', () => {
    const r = new ActionRegistry();
    r.register({ id: A.presenterNext, label: 'x', group: 'presenter', run: () => {} });
    r.register({ id: A.theme, label: 'y', group: 'app', run: () => {} });
    const html = renderToStaticMarkup(
      createElement(
        ActionsContext.Provider,
        { value: r },
        createElement(KeyList, { liveOnly: true }),
      ),
    );
    const groups = [...html.matchAll(/data-group="(\w+)"/g)].map((m) => m[1]);
    expect(groups).toEqual(['presenter', 'app']);
    expect(html).not.toContain('not on this page');
  });

  it('the page says where each group works', () => {
    const html = renderToStaticMarkup(
      createElement(
        ActionsContext.Provider,
        { value: new ActionRegistry() },
        createElement(KeyList),
      ),
    );
    expect(html).toContain(
      'Timeline<span class="muted small"> (in the playground, embedded players and lessons)',
    );
    expect(html).toContain('Site<span class="muted small"> (on every page)');
  });

  it('gives every command its own id and label', () => {
    expect(new Set(ACTION_DEFS.map((d) => d.id)).size).toBe(ACTION_DEFS.length);
    expect(new Set(ACTION_DEFS.map((d) => d.label)).size).toBe(ACTION_DEFS.length);
  });

  it('binds no key twice among the commands live together on a page', () => {
    const groups = new Set(ACTION_DEFS.map((d) => d.group));
    for (const [screen, live] of Object.entries(SCREENS)) {
      const seen = new Map<string, string>();
      for (const d of ACTION_DEFS.filter((x) => live.includes(x.group)))
        for (const k of d.keys ?? []) {
          expect(seen.get(k), `${screen}: ${k} is bound to ${seen.get(k)} and ${d.id}`).toBe(
            undefined,
          );
          seen.set(k, d.id);
        }
      for (const g of live) expect(groups.has(g)).toBe(true);
    }
    // Every group is live somewhere, so every command can be reached from the keyboard.
    for (const g of groups) expect(Object.values(SCREENS).some((s) => s.includes(g))).toBe(true);
  });
});
