import { createRoute, Outlet } from '@tanstack/react-router';
import { RequireSession } from './require-session';
import { rootRoute } from './root-route';

/**
 * The parent of every screen for signed-in people (My tickets, an order, the account, every
 * /manage screen): one guard for all of them, so a new screen cannot forget it. Pathless: its
 * screens keep their own addresses.
 */
export const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in',
  component: () => (
    <RequireSession>
      <Outlet />
    </RequireSession>
  ),
});
