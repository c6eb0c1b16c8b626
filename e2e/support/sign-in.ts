import type { Page } from 'playwright-core';
import { linkFromOutbox } from './outbox';

/** The password of the journeys' people, unless a journey is about passwords. */
export const defaultPassword = 'correct horse battery staple';

export interface Credentials {
  email: string;
  /** `defaultPassword` when not given. */
  password?: string;
}

export interface Person extends Credentials {
  name: string;
}

/** Signs up through the UI and opens the verification link from the dev outbox: signed in afterwards. */
export async function signUpAndVerify(page: Page, { name, email, password = defaultPassword }: Person) {
  await page.goto('/sign-up');
  await page.getByLabel('Your name').fill(name);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
  await page.goto(await linkFromOutbox(page, email));
  await page.getByRole('button', { name: 'Account menu' }).waitFor();
}

/**
 * Fills the sign-in form at `path` with an email and password and sends it, waiting for nothing: the
 * caller waits for the answer it expects (signed in, a second step, a refusal).
 */
export async function submitSignIn(page: Page, { email, password = defaultPassword }: Credentials, path = '/sign-in') {
  await page.goto(path);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in with an email and password through the UI: signed in afterwards. */
export async function signIn(page: Page, person: Credentials) {
  await submitSignIn(page, person);
  await page.getByRole('button', { name: 'Account menu' }).waitFor();
}
