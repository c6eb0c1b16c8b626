import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startAdmit, type AdmitServer } from './support/admit-server';
import { launchChromium, newPage, signUpAndVerify } from './support/browser';

describe('someone guessing a password is slowed down and told how long to wait', () => {
  let server: AdmitServer;
  let browser: Browser;
  let page: Page;
  const email = 'guessed@example.test';
  const password = 'the right password';

  beforeAll(async () => {
    server = await startAdmit();
    browser = await launchChromium();
    page = await newPage(browser, server.url);
    await signUpAndVerify(page, 'Gus Guessed', email, password);
    await page.context().clearCookies();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
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
