import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './support/accessibility';
import { callAs, screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

describe('an organizer makes an API key for the door scanners of another vendor, and revokes it', () => {
  const journey = useJourney();
  let organizer: Page;
  let organizationId = '';
  let key = '';
  const events = () => fetch(`${journey.url}/api/v1/events`, { headers: { authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    organizer = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia.api@example.test' });
    ({ organizationId } = await callAs(organizer)<{ organizationId: string }>('orgs.create', { name: 'Harbour Nights' }));
  });

  it('makes a door key on the organization’s page and sees it once', async () => {
    await organizer.goto(`/manage/orgs/${organizationId}`);
    await organizer.getByRole('link', { name: 'API keys' }).click();
    await organizer.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await organizer.getByText('No keys yet').waitFor();
    await organizer.getByRole('textbox', { name: /^Name/ }).fill('Turnstiles');
    await organizer.getByRole('checkbox', { name: /^Read/ }).uncheck();
    await organizer.getByRole('checkbox', { name: /^Door/ }).check();
    await organizer.getByRole('button', { name: 'Make the key' }).click();
    const dialog = organizer.getByRole('dialog', { name: 'Your new key' });
    key = (await dialog.getByTestId('new-api-key').textContent()) ?? '';
    expect(key).toMatch(/^admit_key_[\w-]{43}$/);
    await screenshots(organizer, 'api-key-made');
    await dialog.getByRole('button', { name: 'Done' }).click();
    const row = organizer.getByRole('row', { name: /Turnstiles/ });
    await row.getByText(key.slice(0, 16)).waitFor();
    await row.getByText('Never').waitFor();
    expect(await row.textContent()).not.toContain(key);

    const answer = await events();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('ratelimit-limit')).not.toBeNull();
    // The list shows its use without a reload.
    await row.getByText('Never').waitFor({ state: 'detached' });
    await screenshots(organizer, 'api-keys');
    expect(await accessibilityViolations(organizer)).toEqual([]);
  });

  it('revokes it, and the key is refused at once', async () => {
    await organizer.getByRole('button', { name: 'Revoke Turnstiles' }).click();
    await organizer.getByRole('dialog', { name: 'Revoke this key?' }).getByRole('button', { name: 'Revoke the key' }).click();
    await organizer.getByText('No keys yet').waitFor();
    // Closed, not fading out: the step's audit reads the page as it stays.
    await organizer.getByRole('dialog', { name: 'Revoke this key?' }).waitFor({ state: 'hidden' });
    expect((await events()).status).toBe(401);
  });

  it("reads the API's reference at /api/docs with a keyboard, and axe finds nothing on it", async () => {
    await organizer.goto('/api/docs');
    await organizer.getByRole('heading', { name: 'Admit API', level: 1 }).waitFor();
    await organizer.keyboard.press('Tab');
    await organizer.keyboard.press('Tab');
    const focused = organizer.locator(':focus');
    expect(await focused.textContent()).toBe('Events');
    await organizer.keyboard.press('Enter');
    await organizer.waitForURL(/#tag-Events$/);
    expect(await accessibilityViolations(organizer)).toEqual([]);
  });
});
