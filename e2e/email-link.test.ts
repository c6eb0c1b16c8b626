import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../apps/server/src/testing/totp';
import { useJourney } from './support/journey';
import { linkFromOutbox } from './support/outbox';

describe('a new person signs in with a link by email, which works once', () => {
  const journey = useJourney();
  let page: Page;
  const email = 'lena.link@example.test';
  let link = '';

  beforeAll(async () => {
    page = await journey.newPage();
  });

  it('asks for a link on the sign-in page and is told to check the inbox', async () => {
    await page.goto('/sign-in?redirect=/account');
    await page.getByText('Email link', { exact: true }).click();
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    expect(await page.getByRole('status').innerText()).toContain(email);
    await page.getByRole('link', { name: 'dev outbox' }).waitFor();
    link = await linkFromOutbox(page, email);
    expect(link).toContain('/api/auth/magic-link/verify?token=');
  });

  it('opens the link and lands signed in where it started, with a new account', async () => {
    await page.goto(link);
    await page.waitForURL(/\/account$/);
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    expect(await page.getByText(`Email: ${email}`).count()).toBe(1);
    await page.getByText(`A link sent to ${email}`).waitFor();
    // A link asks for no name: the app asks once, and the account page shows it.
    const prompt = page.getByRole('dialog', { name: 'What is your name?' });
    await prompt.getByRole('textbox', { name: 'Your name' }).fill('Lena Link');
    await prompt.getByRole('button', { name: 'Save' }).click();
    await prompt.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByRole('textbox', { name: 'Your name' }).inputValue()).toBe('Lena Link');
    // No password to change: the form that asks for the current one is not offered.
    expect(await page.getByRole('heading', { name: 'Change password' }).count()).toBe(0);
  });

  it('refuses the same link a second time with a clear message', async () => {
    await page.context().clearCookies();
    await page.goto(link);
    await page.getByText('This sign-in link has expired or was used already. Ask for a new one below.').waitFor();
    await page.getByRole('button', { name: 'Email me a sign-in link' }).waitFor();
  });

  async function signInByLink() {
    await page.context().clearCookies();
    await page.goto('/sign-in?method=email-link&redirect=/account');
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    await page.goto(await linkFromOutbox(page, email));
  }

  it('turns on two-factor authentication without a password, and the next link asks for the code', async () => {
    await signInByLink();
    await page.waitForURL(/\/account$/);
    const turnOn = page.getByRole('button', { name: 'Turn on two-factor authentication' });
    // The button waits until the page knows whether the person has a password.
    await expect.poll(() => turnOn.isEnabled(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByRole('textbox', { name: 'Your password' }).count()).toBe(0);
    await turnOn.click();
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    await page.getByRole('textbox', { name: 'Code from your app' }).fill(totpCode(secret));
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    await page.getByRole('button', { name: 'I have saved them' }).click();

    await signInByLink();
    await page.waitForURL(/\/sign-in\?step=second-factor/);
    await page.getByText('Enter the 6-digit code from your app.').waitFor();
    await page.getByRole('textbox', { name: 'Code' }).fill(totpCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/account$/);
    await page.getByText(`Email: ${email}`).waitFor();
  });
});
