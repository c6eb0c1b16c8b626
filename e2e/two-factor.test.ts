import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../apps/server/src/testing/totp';
import { useJourney } from './support/journey';
import { signUpAndVerify, submitSignIn } from './support/sign-in';

describe('a person turns on two-factor authentication and is asked for a code at sign-in', () => {
  const journey = useJourney();
  let page: Page;
  const email = 'toni.totp@example.test';
  const password = 'a long enough password';
  let secret = '';
  let backupCodes: string[] = [];

  beforeAll(async () => {
    page = await journey.newPage();
    await signUpAndVerify(page, { name: 'Toni Totp', email, password });
  });

  async function signInWithPassword() {
    await page.context().clearCookies();
    await submitSignIn(page, { email, password }, '/sign-in?redirect=/account');
    await page.getByText('Enter the 6-digit code from your app.').waitFor();
  }

  it('turns it on from the account page with the password, the QR code and a code from the app', async () => {
    await page.goto('/account');
    // Without the password: asked for next to its field, not called wrong.
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await page.getByText('This field is required.').waitFor();
    expect(await page.getByText('Your password is not right.').count()).toBe(0);
    await page.getByRole('textbox', { name: 'Your password' }).fill(password);
    expect(await page.getByText('This field is required.').count()).toBe(0);
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    secret = (await page.getByTestId('totp-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);

    await page.getByRole('textbox', { name: 'Code from your app' }).fill(totpCode(secret));
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    await page.getByText('Two-factor authentication is on.').waitFor();
    backupCodes = await page.getByTestId('backup-code').allInnerTexts();
    expect(backupCodes.length).toBeGreaterThanOrEqual(8);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download (.txt)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('admit-backup-codes.txt');
    const text = await readFile((await download.path())!, 'utf8');
    for (const backupCode of backupCodes) expect(text).toContain(backupCode);

    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('button', { name: 'Turn off two-factor authentication' }).waitFor();
    expect(await page.getByTestId('backup-code').count()).toBe(0);
  });

  it('asks for the code after the password, refuses a wrong one and signs in with the right one', async () => {
    await signInWithPassword();
    const code = totpCode(secret);
    await page.getByRole('textbox', { name: 'Code' }).fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('That code is not right. Enter the current code from your app.').waitFor();
    await page.getByRole('textbox', { name: 'Code' }).fill(totpCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/account$/);
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
  });

  it('signs in with a backup code instead, which then no longer works', async () => {
    await signInWithPassword();
    await page.getByRole('button', { name: 'Use a backup code instead' }).click();
    await page.getByRole('textbox', { name: 'Backup code' }).fill(backupCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/account$/);
    await page.getByRole('heading', { name: 'Your account' }).waitFor();

    await signInWithPassword();
    await page.getByRole('button', { name: 'Use a backup code instead' }).click();
    await page.getByRole('textbox', { name: 'Backup code' }).fill(backupCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('That backup code is not right or was used already.').waitFor();
  });
});
