/*
 * ErrorBoundary.tsx: what the page shows when a part of it throws while drawing: the part's name,
 * the error's message and a way on, in that part's place only, so the rest of the page keeps
 * working. A view shows a small panel with "Try again"; a route shows the error with a way home.
 * The failure is announced through the live region, and a boundary clears itself when its
 * `resetKey` changes (a route's boundary is keyed by the location hash, so navigating elsewhere
 * or following a good link in the same tab recovers).
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useAnnounce } from './LiveRegion';
import { routeHref } from './router';

interface Props {
  /** What failed, as the reader knows it: a view's title, a page's name. */
  title: string;
  kind: 'view' | 'route';
  /** A new value clears a caught error (the hash, for a route). */
  resetKey?: unknown;
  children: ReactNode;
}

interface State {
  error: Error | null;
  key: unknown; // the resetKey the error was caught under
}

class Boundary extends Component<Props & { announce: (text: string) => void }, State> {
  override state: State = { error: null, key: undefined };

  static getDerivedStateFromError(e: unknown): Partial<State> {
    return { error: e instanceof Error ? e : new Error(String(e)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    // Caught under an older key: the reader has moved on, so draw the children again.
    if (state.error && state.key !== props.resetKey) return { error: null, key: props.resetKey };
    return state.key === props.resetKey ? null : { key: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn(`${this.props.title} failed:`, error, info.componentStack);
  }

  // Announced once the panel is on the page, not when the error is caught: an error thrown in an
  // effect is caught while the rest of that commit's effects still run (Preact calls
  // componentDidCatch at once), and one of them narrates the event that broke the view; the
  // failure is the newer news, so it must be said after it.
  override componentDidMount(): void {
    this.announceFailure(null);
  }

  override componentDidUpdate(_prev: unknown, prevState: State): void {
    this.announceFailure(prevState.error);
  }

  private announceFailure(before: Error | null): void {
    const { error } = this.state;
    if (error && error !== before)
      this.props.announce(`${this.props.title} failed: ${error.message}`);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    const { title, kind } = this.props;
    const again = (
      <button type="button" onClick={() => this.setState({ error: null })}>
        Try again
      </button>
    );
    if (kind === 'view') {
      return (
        <section className="view view-failed" aria-label={title}>
          <h3>{title}</h3>
          <p className="error">This view failed: {error.message}</p>
          {again}
        </section>
      );
    }
    return (
      <main id="main" className="route-failed" tabIndex={-1}>
        <h1>{title} could not be shown</h1>
        <p className="error">{error.message}</p>
        <p>
          The rest of the site still works. {again}{' '}
          <a href={routeHref('home')}>Go to the home page</a>
        </p>
      </main>
    );
  }
}

/** A boundary around one view or one route, announcing its failure in the live region. */
export function ErrorBoundary(props: Props) {
  const announce = useAnnounce();
  return <Boundary {...props} announce={announce} />;
}
