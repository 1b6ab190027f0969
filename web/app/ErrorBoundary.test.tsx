// A part of the page that throws while drawing shows what failed in its place, announces it, and
// leaves its siblings drawn; Try again and a new reset key draw it again.
import { createElement, type ReactNode } from 'react';
import { act } from 'preact/test-utils';
import { createRoot } from 'react-dom/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { installFakeDom, type FakeElement } from './fake-dom';

let container: FakeElement;
beforeAll(() => {
  container = installFakeDom();
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterAll(() => vi.restoreAllMocks());

let broken = true;
function Fragile({ label }: { label: string }): ReactNode {
  if (broken) throw new Error(`${label} exploded`);
  return <p>{label} drawn</p>;
}

describe('ErrorBoundary', () => {
  it('a throwing view leaves its siblings drawn, says what failed, and tries again', async () => {
    const { ErrorBoundary } = await import('./ErrorBoundary');
    const { LiveRegionProvider } = await import('./LiveRegion');
    const root = createRoot(container as unknown as Element);
    const page = (key: number) => (
      <LiveRegionProvider>
        <div>
          <p>sibling before</p>
          <ErrorBoundary title="Free areas" kind="view" resetKey={key}>
            <Fragile label="free areas" />
          </ErrorBoundary>
          <p>sibling after</p>
        </div>
      </LiveRegionProvider>
    );
    await act(async () => root.render(page(0)));
    const text = () => container.textContent;
    expect(text()).toContain('sibling before');
    expect(text()).toContain('sibling after');
    expect(text()).toContain('Free areas');
    expect(text()).toContain('This view failed: free areas exploded');
    // Announced in the live region.
    const live = container.all().find((e) => e.getAttribute('aria-live') === 'polite');
    expect(live?.textContent).toBe('Free areas failed: free areas exploded');
    // A new reset key (a new machine, a new hash) draws it again once it can.
    broken = false;
    await act(async () => root.render(page(1)));
    expect(text()).toContain('free areas drawn');
    expect(text()).not.toContain('This view failed');
    await act(async () => root.unmount());
  });

  it('a registered view that throws leaves the other views of the machine drawn', async () => {
    const [{ RegisteredView }, { loadCore }, { compileText }, { Session }] = await Promise.all([
      import('../views/registry'),
      import('../core/module'),
      import('./compile'),
      import('./session'),
    ]);
    const out = compileText('machine small\ncpu 0 alloc a order=2\n');
    if (!out.ok) throw new Error(out.error.message);
    const session = new Session(await loadCore(), out.program);
    // The /proc view reads the machine's proc files while drawing: make that throw.
    const failing = Object.assign(Object.create(session) as typeof session, {
      proc: () => {
        throw new Error('wasm heap exhausted');
      },
    });
    const root = createRoot(container as unknown as Element);
    const common = {
      event: null,
      opEvents: [],
      other: null,
      theme: 'light' as const,
      reducedMotion: true,
    };
    try {
      await act(async () =>
        root.render(
          createElement(
            'div',
            null,
            createElement(RegisteredView, { ...common, name: 'free-areas', machine: session }),
            createElement(RegisteredView, { ...common, name: 'proc', machine: failing }),
            createElement(RegisteredView, { ...common, name: 'zones', machine: session }),
          ),
        ),
      );
      const text = container.textContent;
      expect(text).toContain('Free areas');
      expect(text).toContain('Zones and watermarks');
      expect(text).toContain('This view failed: wasm heap exhausted');
      const failed = container
        .all()
        .filter((e) => e.getAttribute('class')?.includes('view-failed'));
      expect(failed.map((e) => e.getAttribute('aria-label'))).toEqual(['/proc']);
      const drawn = container
        .all()
        .filter(
          (e) => e.nodeName === 'SECTION' && !e.getAttribute('class')?.includes('view-failed'),
        );
      expect(drawn.length).toBe(2);
      await act(async () => root.unmount());
    } finally {
      session.dispose();
    }
  });

  it('a route that throws shows the error with a way home, and a new hash draws it again', async () => {
    const { ErrorBoundary } = await import('./ErrorBoundary');
    const root = createRoot(container as unknown as Element);
    const page = (hash: string) => (
      <div>
        <nav>site navigation</nav>
        <ErrorBoundary title="Playground" kind="route" resetKey={hash}>
          <Fragile label="playground" />
        </ErrorBoundary>
      </div>
    );
    broken = true;
    await act(async () => root.render(page('#/playground?s=bad')));
    expect(container.textContent).toContain('site navigation');
    expect(container.textContent).toContain('Playground could not be shown');
    expect(container.textContent).toContain('playground exploded');
    const home = container.all().find((e) => e.nodeName === 'A');
    expect(home?.getAttribute('href')).toBe('#/');
    expect(home?.textContent).toBe('Go to the home page');
    // The same hash keeps the error; following a good link (a new hash) draws the route again.
    broken = false;
    await act(async () => root.render(page('#/playground?s=bad')));
    expect(container.textContent).toContain('Playground could not be shown');
    await act(async () => root.render(page('#/playground?s=good')));
    expect(container.textContent).toContain('playground drawn');
    expect(container.textContent).not.toContain('could not be shown');
    await act(async () => root.unmount());
  });
});
