import { Component, type ComponentChildren } from 'preact';

/** Props of {@link RenderBoundary}. */
export interface RenderBoundaryProps {
  /** What shows in place of the children once rendering them threw. */
  readonly fallback: ComponentChildren;
  readonly children?: ComponentChildren;
}

/**
 * Keeps a rendering error inside one part of the page: the children are replaced by
 * `fallback`, and everything around them stays. Without it a throw anywhere in a message
 * unmounted the whole app, and a reload threw again on the same message: a blank page for
 * as long as that conversation was current.
 */
export class RenderBoundary extends Component<RenderBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  override componentDidCatch(error: unknown): void {
    // Kept for whoever opens the console; the page itself carries on.
    console.warn('A part of the page could not be drawn', error);
    this.setState({ failed: true });
  }

  override render({ fallback, children }: RenderBoundaryProps): ComponentChildren {
    return this.state.failed ? fallback : children;
  }
}
