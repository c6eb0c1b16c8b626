import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * Whether React has taken over the page: false in a page the server drew until it has hydrated,
 * true at once in a page drawn in the browser. A field the server drew takes what a person types
 * before then into its element only, never into React's state (the total would not follow, the
 * order would not have it): such a field waits, disabled, until this is true.
 */
export function useTakenOver(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
