import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useJourney } from './support/journey';
import { linkFromOutbox } from './support/outbox';
import { signUpAndVerify, submitSignIn } from './support/sign-in';

describe('a person who forgot their password chooses a new one from the emailed link', () => {
  const journey = useJourney();
  let page: Page;
  const email = 'rosa@example.test';
  let resetLink = '';

  beforeAll(async () => {
    page = await journey.newPage();
    await signUpAndVerify(page, { name: 'Rosa Reset', email, password: 'the old password' });
    await page.context().clearCookies();
  });

  it('asks for a reset link from the sign-in page and gets the same answer for any address', async () => {
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill('nobody@example.test');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    const unknownAnswer = await page.getByText('If an account uses').innerText();
    expect(unknownAnswer).toContain('nobody@example.test');

    await page.goto('/forgot-password');
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    expect(await page.getByText('If an account uses').innerText()).toBe(unknownAnswer.replace('nobody@example.test', email));
    await page.getByRole('link', { name: 'dev outbox' }).waitFor();

    resetLink = await linkFromOutbox(page, email);
    expect(resetLink).toContain('/reset-password?token=');
  });

  it('sets the new password from the link, after checking both entries match', async () => {
    await page.goto(resetLink);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('a fresh new password');
    await page.getByRole('textbox', { name: 'New password again' }).fill('a different one');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByText('The two passwords differ.').waitFor();
    await page.getByRole('textbox', { name: 'New password again' }).fill('a fresh new password');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByRole('heading', { name: 'Your password is changed' }).waitFor();
  });

  it('refuses the same link a second time with a clear message', async () => {
    await page.goto(resetLink);
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('yet another password');
    await page.getByRole('textbox', { name: 'New password again' }).fill('yet another password');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByText('This reset link has expired or was used already. Ask for a new one.').waitFor();
  });

  it('signs in with the new password and no longer with the old one', async () => {
    await submitSignIn(page, { email, password: 'the old password' });
    await page.getByText('That email and password do not match.').waitFor();
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('a fresh new password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
  });
});
