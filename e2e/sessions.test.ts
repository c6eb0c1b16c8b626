import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useJourney } from './support/journey';
import { signIn, signUpAndVerify } from './support/sign-in';

const sam = { name: 'Sam Sessions', email: 'sam@example.test' };

describe('a person sees where they are signed in and signs another device out', () => {
  const journey = useJourney();
  let laptop: Page;
  let phone: Page;

  beforeAll(async () => {
    laptop = await journey.newPage();
    phone = await journey.newPage({
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      viewport: { width: 390, height: 844 },
    });
    await signUpAndVerify(laptop, sam);
    await signIn(phone, sam);
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
    await signIn(phone, sam);
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
