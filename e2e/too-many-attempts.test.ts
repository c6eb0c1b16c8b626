import type { Page } from 'playwright-core';
import { beforeAll, describe, it } from 'vitest';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

describe('someone guessing a password is slowed down and told how long to wait', () => {
  const journey = useJourney();
  let page: Page;
  const email = 'guessed@example.test';
  const password = 'the right password';

  beforeAll(async () => {
    page = await journey.newPage();
    await signUpAndVerify(page, { name: 'Gus Guessed', email, password });
    await page.context().clearCookies();
  });

  async function signIn(withPassword: string) {
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(withPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('answers ten wrong passwords for one address as wrong, then says to wait 15 minutes', async () => {
    await page.goto('/sign-in');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      await signIn(`wrong guess ${attempt}`);
      await page.getByRole('alert').filter({ hasText: 'That email and password do not match.' }).waitFor();
      // The next answer must be a new one: wait until the button is ready again.
      await page.getByRole('button', { name: 'Sign in' }).and(page.locator(':not([data-loading])')).waitFor();
    }
    await signIn('wrong guess 11');
    await page.getByRole('alert').filter({ hasText: 'Too many attempts. Try again in 15 minutes.' }).waitFor();
  });

  it('does not let even the right password through until then', async () => {
    await signIn(password);
    await page
      .getByRole('alert')
      .filter({ hasText: /Too many attempts\. Try again in 1[45] minutes\./ })
      .waitFor();
    await page.waitForURL(/\/sign-in/);
  });
});
