import { lazyRouteComponent } from '@tanstack/react-router';
import { createElement, lazy, type ComponentType } from 'react';

/**
 * Loads a screen's chunk together with the Mantine styles the first paint left out
 * (app/mantine-more.css), so that no lazy screen draws before its components' styles are in. One
 * shared chunk: the second lazy screen finds it loaded (decision 0042).
 */
export function withMoreStyles<T>(load: () => Promise<T>): () => Promise<T> {
  return async () => (await Promise.all([load(), import('./more-styles')]))[0];
}

/** A route's lazy component, with the styles it needs. */
export function lazyScreen<T extends Record<string, unknown>, K extends keyof T & string>(load: () => Promise<T>, name: K) {
  return lazyRouteComponent(withMoreStyles(load), name);
}

/**
 * A component in a chunk of its own: React.lazy until its chunk is in, then the component itself,
 * drawn at once. So a part loaded before the browser takes over the server's first view (decision
 * 0049), or before the server draws it, draws in the same pass as the page around it.
 */
export function preloadableLazy<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  /** Loads the component (once): a route's loader awaits it for a part its page draws. */
  const preload = () => (loading ??= load().then((component) => (loaded = component)));
  const Lazy = lazy(async () => ({ default: await preload() }));
  const LazyPart = (props: P) => createElement(loaded ?? Lazy, props);
  return Object.assign(LazyPart, { preload });
}

/** A lazy part of a screen, with the styles it needs (see preloadableLazy). */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>) {
  return preloadableLazy(withMoreStyles(load));
}
