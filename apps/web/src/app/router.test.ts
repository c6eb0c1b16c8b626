import { createMemoryHistory } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { createAppRouter } from './router';

/**
 * Whether a screen's address is for signed-in people: the account, tickets and every organizer
 * screen. An order's page is not: a guest opens it with the token of their email, and the route
 * asks for a session only without one (decision 0060).
 */
const forSignedIn = (path: string) => /^\/(account|manage)(\/|$)/.test(path) || path === '/tickets';

describe('the router', () => {
  const router = createAppRouter(createMemoryHistory({ initialEntries: ['/'] }));
  interface Screen {
    id: string;
    fullPath: string;
    parentRoute?: Screen;
  }
  const screens = Object.values(router.routesByPath) as unknown as Screen[];

  it('puts every screen for signed-in people under the one signed-in guard, and no public page', () => {
    const guarded = (route: Screen) => {
      for (let parent = route.parentRoute; parent; parent = parent.parentRoute) if (parent.id === '/signed-in') return true;
      return false;
    };
    const wrong = screens.filter((route) => forSignedIn(route.fullPath) !== guarded(route)).map((route) => route.fullPath);
    expect(screens.length).toBeGreaterThan(15);
    expect(wrong).toEqual([]);
  });
});
