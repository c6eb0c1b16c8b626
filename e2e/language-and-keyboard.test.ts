import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useJourney } from './support/journey';

describe('a visitor who reads German and uses only the keyboard', () => {
  const journey = useJourney();
  let page: Page;

  beforeAll(async () => {
    page = await journey.newPage();
  });

  it('switches the interface to German and keeps the choice after a reload', async () => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Upcoming events' }).waitFor();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await page.getByRole('heading', { name: 'Kommende Veranstaltungen' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');

    await page.reload();
    await page.getByRole('heading', { name: 'Kommende Veranstaltungen' }).waitFor();
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en');
    await page.getByRole('heading', { name: 'Upcoming events' }).waitFor();
  });

  it('signs up with the keyboard alone: every field is reachable by Tab and Enter submits', async () => {
    await page.goto('/sign-up');
    const name = page.getByRole('textbox', { name: 'Your name' });
    await name.waitFor();
    await name.focus();
    await page.keyboard.type('Kim Keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.type('kim@example.test');
    await page.keyboard.press('Tab');
    await page.keyboard.type('a long enough password');
    expect(await page.getByRole('textbox', { name: 'Email', exact: true }).inputValue()).toBe('kim@example.test');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
  });

  it('explains each invalid field in words next to it, instead of sending the form', async () => {
    await page.goto('/sign-up');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('This field is required.').first().waitFor();
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('not an email');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Enter a valid email address.').waitFor();
    const email = page.getByRole('textbox', { name: 'Email', exact: true });
    expect(await email.getAttribute('aria-invalid')).toBe('true');
  });
});
