import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useJourney } from './support/journey';
import { codeFromOutbox } from './support/outbox';

describe('a new person signs in with a phone number and a texted code', () => {
  const journey = useJourney();
  let page: Page;

  beforeAll(async () => {
    page = await journey.newPage();
  });

  it('explains what a number needs when it has no country code', async () => {
    await page.goto('/sign-in?redirect=/account');
    await page.getByText('Phone', { exact: true }).click();
    await page.getByRole('textbox', { name: 'Phone number' }).fill('0151 23456789');
    await page.getByRole('button', { name: 'Text me a code' }).click();
    await page.getByText('Enter the number with its country code, starting with +, for example +49 151 23456789.').waitFor();
  });

  it('texts a code to the number written with spaces, refuses a wrong code, and signs in with the right one', async () => {
    await page.getByRole('textbox', { name: 'Phone number' }).fill('+49 151 23456789');
    await page.getByRole('button', { name: 'Text me a code' }).click();
    await page.getByText('We sent a 6-digit code to +4915123456789. It works for 5 minutes.').waitFor();
    await page.getByRole('link', { name: 'dev outbox' }).waitFor();
    const codeInput = page.getByRole('textbox', { name: 'Code' });
    expect(await codeInput.getAttribute('autocomplete')).toBe('one-time-code');

    const code = await codeFromOutbox(page, '+4915123456789');
    await codeInput.fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That code is not right. Check the text message and try again.').waitFor();

    await codeInput.fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/account$/);
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    // Its only sign-in method, listed as such; no email link to a reserved address.
    await page.getByText('A code sent to +4915123456789').waitFor();
    expect(await page.getByText(/A link sent to/).count()).toBe(0);
    // Shown by its number, never by a made-up address; asked for a name once.
    await page.getByText('Phone: +49 1512 3456789').waitFor();
    expect(await page.getByText(/admit\.invalid/).count()).toBe(0);
    const prompt = page.getByRole('dialog', { name: 'What is your name?' });
    await prompt.getByRole('textbox', { name: 'Your name' }).fill('Pia Phone');
    await prompt.getByRole('button', { name: 'Save' }).click();
    await prompt.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByRole('textbox', { name: 'Your name' }).inputValue()).toBe('Pia Phone');
  });

  it('stops accepting a code after three wrong ones, with its own message', async () => {
    await page.context().clearCookies();
    await page.goto('/sign-in');
    await page.getByText('Phone', { exact: true }).click();
    await page.getByRole('textbox', { name: 'Phone number' }).fill('+49 151 23456789');
    await page.getByRole('button', { name: 'Text me a code' }).click();
    const codeInput = page.getByRole('textbox', { name: 'Code' });
    await codeInput.waitFor();
    const code = await codeFromOutbox(page, '+4915123456789');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await codeInput.fill(wrong);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('That code is not right. Check the text message and try again.').waitFor();
      await page.getByRole('button', { name: 'Sign in' }).and(page.locator(':not([data-loading])')).waitFor();
    }
    await codeInput.fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That was the third wrong code, so it no longer works. Send a new one.').waitFor();
  });
});
