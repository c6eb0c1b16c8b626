import { createElement, lazy, type ComponentType } from 'react';
import { loadOrReload } from './new-build';

/**
 * A component in a chunk of its own: React.lazy until its chunk is in, then the component itself,
 * drawn at once. So a part loaded before the browser takes over the server's first view (decision
 * 0049), or before the server draws it, draws in the same pass as the page around it. A chunk gone
 * with a new build reloads the page once (lib/new-build.ts).
 */
export function preloadableLazy<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  /** Loads the component (once): a route's loader awaits it for a part its page draws. */
  const preload = () => (loading ??= loadOrReload(load)().then((component) => (loaded = component)));
  const Lazy = lazy(async () => ({ default: await preload() }));
  const LazyPart = (props: P) => createElement(loaded ?? Lazy, props);
  return Object.assign(LazyPart, { preload });
}
