import { lazyRouteComponent } from '@tanstack/react-router';
import type { ComponentType } from 'react';
import { loadOrReload } from '../lib/new-build';
import { preloadableLazy } from '../lib/preloadable-lazy';

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
  return lazyRouteComponent(loadOrReload(withMoreStyles(load)), name);
}

/** A lazy part of a screen, with the styles it needs (lib/preloadable-lazy.ts). */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>) {
  return preloadableLazy(withMoreStyles(load));
}
