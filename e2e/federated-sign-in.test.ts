import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useJourney } from './support/journey';
import { startOidcProvider, type OidcProvider } from './support/oidc-provider';
import { signUpAndVerify } from './support/sign-in';

const grace = { login: 'grace', email: 'grace@example.test', name: 'Grace Hopper' };
const ada = { login: 'ada', email: 'ada@example.test', name: 'Ada Lovelace' };

/** The id of the person the page's session belongs to. */
async function sessionUserId(page: Page): Promise<string> {
  const response = await page.request.get('/api/auth/get-session');
  return ((await response.json()) as { user: { id: string } }).user.id;
}

/** The account menu's label: the signed-in person's email. */
async function signedInEmail(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  const label = await page.getByRole('menu').getByText(/@/).innerText();
  await page.getByRole('menu').press('Escape');
  await page.getByRole('menu').waitFor({ state: 'detached' });
  return label;
}

describe('a person signs in with an OpenID Connect provider', () => {
  let provider: OidcProvider;
  const journey = useJourney({
    // The provider must know the client's callback address, so it starts once Admit's port is chosen.
    env: async ({ port }) => {
      provider = await startOidcProvider({
        redirectUri: `http://localhost:${port}/api/auth/callback/oidc`,
        accounts: [grace, ada],
      });
      return {
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        OIDC_NAME: 'Example ID',
      };
    },
    // The provider's dev pages load a web font; this machine has no way out.
    prepareContext: (context) => context.route(/fonts\.googleapis\.com/, (route) => route.abort()),
  });
  let page: Page;
  let firstUserId: string;

  beforeAll(async () => {
    page = await journey.newPage();
  });

  afterAll(async () => {
    await provider?.stop();
  });

  it('offers the provider on the sign-in and sign-up pages', async () => {
    await page.goto('/sign-up');
    await page.getByRole('button', { name: 'Continue with Example ID' }).waitFor();
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Continue with Example ID' }).waitFor();
  });

  it('signs a new person in through the provider, with the email it vouches for', async () => {
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Continue with Example ID' }).click();
    // The provider's own sign-in page (oidc-provider's dev interactions: any password).
    await page.waitForURL((url) => url.href.startsWith(provider.issuer));
    await page.locator('input[name="login"]').fill(grace.login);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.href.startsWith(journey.url));
    expect(await signedInEmail(page)).toBe(grace.email);
    firstUserId = await sessionUserId(page);
  });

  it('signs the same person into the same account the next time', async () => {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Continue with Example ID' }).click();
    // Still signed in at the provider, with consent given: straight back to Admit.
    await page.waitForURL((url) => url.href.startsWith(journey.url) && !url.pathname.startsWith('/sign-in'));
    expect(await signedInEmail(page)).toBe(grace.email);
    expect(await sessionUserId(page)).toBe(firstUserId);

    const accounts = await page.request.get('/api/auth/list-accounts');
    expect(accounts.status()).toBe(200);
    const linked = (await accounts.json()) as { providerId: string }[];
    expect(linked.map((account) => account.providerId)).toEqual(['oidc']);
  });

  it('says so on the sign-in page when the person cancels at the provider', async () => {
    // Another browser, not signed in at the provider.
    const other = await journey.newPage();
    await other.goto('/sign-in');
    await other.getByRole('button', { name: 'Continue with Example ID' }).click();
    await other.getByRole('link', { name: '[ Cancel ]' }).click();
    await other.waitForURL((url) => url.href.startsWith(`${journey.url}/sign-in`));
    await other.getByRole('alert').filter({ hasText: 'Signing in with the provider was cancelled.' }).waitFor();
    await other.context().close();
  });

  it('links the provider to an account made with a password, from the account page', async () => {
    const adas = await journey.newPage();
    await signUpAndVerify(adas, { name: ada.name, email: ada.email, password: 'a long enough password' });
    const passwordUserId = await sessionUserId(adas);

    await adas.goto('/account');
    await adas.getByText('Email and password', { exact: true }).waitFor();
    await adas.getByRole('button', { name: 'Link Example ID' }).click();
    await adas.waitForURL((url) => url.href.startsWith(provider.issuer));
    await adas.locator('input[name="login"]').fill(ada.login);
    await adas.locator('input[name="password"]').fill('any password');
    await adas.getByRole('button', { name: 'Sign-in' }).click();
    await adas.getByRole('button', { name: 'Continue' }).click();
    await adas.waitForURL(`${journey.url}/account`);
    await adas.getByRole('button', { name: 'Remove Example ID' }).waitFor();
    await adas.getByRole('button', { name: 'Remove Email and password' }).waitFor();

    // Signed out, the provider now signs Ada into the account she made with her password.
    await adas.context().clearCookies({ name: /^better-auth\./ });
    await adas.goto('/sign-in');
    await adas.getByRole('button', { name: 'Continue with Example ID' }).click();
    await adas.waitForURL((url) => url.href.startsWith(journey.url) && !url.pathname.startsWith('/sign-in'));
    expect(await sessionUserId(adas)).toBe(passwordUserId);
    await adas.context().close();
  });
});
