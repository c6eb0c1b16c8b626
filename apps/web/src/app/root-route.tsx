import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext } from '@tanstack/react-router';
import { NotFound } from './not-found';
import { Shell } from './shell';

/** Every screen's parent: the shell, and the page for an address that is none of them. */
export const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Shell,
  notFoundComponent: NotFound,
});
