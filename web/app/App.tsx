/*
 * App.tsx: the shell: skip link, navigation, theme toggle, the keyboard help dialog, the live
 * region, and the routes (the heavy ones load on demand). Every key press goes to the action
 * registry first.
 */
import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { ActionsContext, useAction } from '../actions/context';
import { A } from '../actions/definitions';
import { ActionRegistry } from '../actions/registry';
import { ErrorBoundary } from './ErrorBoundary';
import { Home } from './Home';
import { LiveRegionProvider } from './LiveRegion';
import { routeHref, useRoute, type Route } from './router';
import { useTheme } from './theme';

const Playground = lazy(() => import('./Playground'));
const ModelNotes = lazy(() => import('./ModelNotes'));
const Lessons = lazy(() => import('../lessons/ui/LessonsRoute'));
const YourMachine = lazy(() => import('./YourMachine'));
const Embed = lazy(() => import('./Embed'));
const Reproductions = lazy(() => import('./Reproductions'));
const KeyboardPage = lazy(() => import('./KeyboardHelp'));
// The ? dialog loads on its first opening: the home page's first load carries no key list.
const KeyboardHelpDialog = lazy(() =>
  import('./KeyboardHelp').then((m) => ({ default: m.KeyboardHelpDialog })),
);

const NAV: [Route, string][] = [
  ['home', 'Home'],
  ['lessons', 'Lessons'],
  ['playground', 'Playground'],
  ['machine', 'Your machine'],
  ['reproductions', 'Reproductions'],
  ['notes', 'Model notes'],
  ['keys', 'Keyboard'],
];

const TITLES: Record<Route, string> = {
  home: 'Buddyscope: how Linux hands out memory',
  lessons: 'Lessons · Buddyscope',
  playground: 'Playground · Buddyscope',
  machine: 'Your machine · Buddyscope',
  embed: 'Buddyscope',
  notes: 'Model notes · Buddyscope',
  keys: 'Keyboard · Buddyscope',
  reproductions: 'Seed reproductions · Buddyscope',
};

/** The page's names, for a route that fails ("Playground could not be shown"). */
const NAMES: Record<Route, string> = {
  ...(Object.fromEntries(NAV) as Record<Exclude<Route, 'embed'>, string>),
  embed: 'The embedded view',
};

function onHash(fn: () => void): () => void {
  window.addEventListener('hashchange', fn);
  return () => window.removeEventListener('hashchange', fn);
}

/** The whole location hash: a route's boundary starts afresh when it changes. */
function useHash(): string {
  return useSyncExternalStore(onHash, () => window.location.hash);
}

function Shell() {
  const route = useRoute();
  const hash = useHash();
  const { theme, choice, cycle } = useTheme();
  const [help, setHelp] = useState(false);
  const [helpShown, setHelpShown] = useState(false);
  if (help && !helpShown) setHelpShown(true);
  useAction(A.theme, { run: cycle });
  useAction(A.help, { run: () => setHelp(true) });

  useEffect(() => {
    document.title = TITLES[route];
    window.scrollTo?.(0, 0);
  }, [route]);

  // An embed (an iframe elsewhere) is the views and the player alone: no site chrome.
  if (route === 'embed') {
    return (
      <ErrorBoundary title={NAMES.embed} kind="route" resetKey={hash}>
        <Suspense
          fallback={
            <p role="status" className="loading">
              Loading…
            </p>
          }
        >
          {/* An embed is one link: another link followed in the same frame opens afresh. */}
          <Embed key={hash} theme={theme} />
        </Suspense>
      </ErrorBoundary>
    );
  }

  return (
    <>
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header className="site-header">
        <a className="brand" href={routeHref('home')}>
          Buddyscope
        </a>
        <nav aria-label="Site">
          <ul>
            {NAV.map(([r, label]) => (
              <li key={r}>
                <a href={routeHref(r)} aria-current={route === r ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="header-tools">
          <button
            type="button"
            onClick={cycle}
            title="Switch theme (Shift+T)"
            aria-label={`Theme: ${choice}. Switch theme`}
          >
            {choice === 'system' ? `Auto (${theme})` : choice === 'light' ? 'Light' : 'Dark'}
          </button>
          <button
            type="button"
            onClick={() => setHelp(true)}
            title="Keyboard shortcuts (?)"
            aria-label="Keyboard shortcuts"
          >
            ?
          </button>
        </div>
      </header>
      <ErrorBoundary title={NAMES[route]} kind="route" resetKey={hash}>
        <Suspense
          fallback={
            <p role="status" className="loading">
              Loading…
            </p>
          }
        >
          {route === 'home' && <Home theme={theme} />}
          {route === 'lessons' && <Lessons theme={theme} />}
          {route === 'playground' && <Playground theme={theme} />}
          {route === 'machine' && <YourMachine />}
          {route === 'reproductions' && <Reproductions />}
          {route === 'notes' && <ModelNotes />}
          {route === 'keys' && <KeyboardPage />}
        </Suspense>
      </ErrorBoundary>
      {helpShown && (
        <Suspense fallback={null}>
          <KeyboardHelpDialog open={help} onClose={() => setHelp(false)} />
        </Suspense>
      )}
    </>
  );
}

export function App() {
  const [registry] = useState(() => new ActionRegistry());
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (document.querySelector('dialog[open]')) return; // the dialog handles its own keys
      registry.handleKey(e);
    };
    const onClickerKey = (e: KeyboardEvent) => {
      if (!document.querySelector('dialog[open]')) registry.handleClickerKey(e);
    };
    window.addEventListener('keydown', onClickerKey, { capture: true });
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onClickerKey, { capture: true });
      window.removeEventListener('keydown', onKey);
    };
  }, [registry]);
  return (
    <ActionsContext.Provider value={registry}>
      <LiveRegionProvider>
        <Shell />
      </LiveRegionProvider>
    </ActionsContext.Provider>
  );
}
