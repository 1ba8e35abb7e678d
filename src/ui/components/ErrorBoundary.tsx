import { Component, type ReactNode } from 'react';

interface Props {
  /** What failed, for the message: "the Pods view". */
  what: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/**
 * Keeps one broken view from taking the page down: it says which view failed and why, and
 * offers to try again (the next render may well succeed at another step).
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="view-error" role="alert">
        <p>
          <strong>{`${this.props.what} failed.`}</strong> The rest of cnisim still works.
        </p>
        <p className="mono">{error.message}</p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </div>
    );
  }
}
