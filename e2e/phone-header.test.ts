import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, it } from 'vitest';
import { useJourney } from './support/journey';

const shots = '/tmp/shots';

describe('a visitor on a phone', () => {
  const journey = useJourney();
  let page: Page;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    page = await journey.newPage({ viewport: { width: 390, height: 844 } });
  });

  it('finds both sign up and sign in in the header', async () => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Upcoming events' }).waitFor();
    const header = page.getByRole('banner');
    await header.getByRole('link', { name: 'Sign in' }).waitFor();
    await page.screenshot({ path: `${shots}/phone-header-390.png` });
    await header.getByRole('link', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Create your Admit account' }).waitFor();
  });

  it('changes the language from the menu', async () => {
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const menu = page.getByRole('navigation', { name: 'Navigation' });
    await menu.getByRole('combobox', { name: 'Language' }).waitFor();
    await page.screenshot({ path: `${shots}/phone-menu-390.png` });
    await menu.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await page.getByRole('heading', { name: 'Ihr Admit-Konto erstellen' }).waitFor();
  });
});
