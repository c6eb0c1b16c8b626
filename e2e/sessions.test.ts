import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdmit, type AdmitServer } from './support/admit-server';
import { launchChromium, newPage, signUpAndVerify } from './support/browser';

const email = 'sam@example.test';
const password = 'correct horse battery staple';

async function signIn(page: Page) {
  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Account menu' }).waitFor();
}

describe('a person sees where they are signed in and signs another device out', () => {
  let server: AdmitServer;
  let browser: Browser;
  let laptop: Page;
  let phone: Page;

  beforeAll(async () => {
    server = await startAdmit();
    browser = await launchChromium();
    laptop = await newPage(browser, server.url);
    phone = await newPage(browser, server.url, {
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      viewport: { width: 390, height: 844 },
    });
    await signUpAndVerify(laptop, 'Sam Sessions', email, password);
    await signIn(phone);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists both sessions on the account page, this device marked', async () => {
    await laptop.getByRole('button', { name: 'Account menu' }).click();
    await laptop.getByRole('menuitem', { name: 'Account' }).click();
    await laptop.getByRole('heading', { name: 'Your account' }).waitFor();
    const sessions = laptop.getByRole('listitem');
    await expect.poll(() => sessions.count()).toBe(2);
    const current = sessions.filter({ hasText: 'This device' });
    await expect.poll(() => current.count()).toBe(1);
    expect(await current.innerText()).toContain('Chrome on Linux');
    await laptop.getByRole('listitem').filter({ hasText: 'Safari on iOS' }).waitFor();
  });

  it('revokes the phone, which is signed out at its next step', async () => {
    await laptop.getByRole('button', { name: 'Revoke the session on Safari on iOS' }).click();
    await expect.poll(() => laptop.getByRole('listitem').count()).toBe(1);

    await phone.goto('/tickets');
    await phone.getByRole('heading', { name: 'Sign in to continue' }).waitFor();
  });

  it('signs out every other session at once and keeps this one', async () => {
    await signIn(phone);
    await laptop.reload();
    // The whole account page loads again (sign-in methods, sessions): more than expect.poll's default second.
    await expect.poll(() => laptop.getByRole('listitem').count(), { timeout: 5_000 }).toBe(2);
    await laptop.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect.poll(() => laptop.getByRole('listitem').count()).toBe(1);

    await phone.goto('/account');
    await phone.getByRole('heading', { name: 'Sign in to continue' }).waitFor();
    await laptop.reload();
    await laptop.getByRole('heading', { name: 'Your account' }).waitFor();
  });
});
