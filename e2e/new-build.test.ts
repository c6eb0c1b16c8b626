import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

// A new version is built into the folder the server serves and the server restarts on it (as each
// web process does in a rolling deploy) while people have the app open. Their pages, built with
// the earlier chunk names, keep working: the server still has the earlier build's chunks
// (scripts/build-web.mjs keeps them in dist-archive). When a chunk is gone all the same, the page
// reloads once onto the new build, and no more (decision 0058), keeping what was typed in a form.

const root = path.resolve(import.meta.dirname, '..');
/** A copy of the built app (apps/web's dist and dist-server) that this journey builds its next release into. */
const site = mkdtempSync(path.join(tmpdir(), 'admit-new-build-'));
const dist = path.join(site, 'dist');
cpSync(path.join(root, 'apps/web/dist'), dist, { recursive: true });
cpSync(path.join(root, 'apps/web/dist-server'), path.join(site, 'dist-server'), { recursive: true });

/** The files of a screen's chunk (and their compressed copies) in a folder of assets. */
const chunkFiles = (dir: string, screen: string) =>
  readdirSync(dir).filter((file) => file.startsWith(`${screen}-`) && !file.endsWith('.map'));

/** Marks the page, so that a reload (which forgets the mark) shows. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { __openedBefore: true }));
const stillMarked = (page: Page) =>
  page.evaluate(() => (window as unknown as { __openedBefore?: boolean }).__openedBefore === true);
const entryScript = (page: Page) =>
  page.evaluate(() => document.querySelector<HTMLScriptElement>('script[type="module"][src]')!.src);

describe('pages opened before a new build keep working after it is served', () => {
  const journey = useJourney({ env: { WEB_DIST_DIR: dist } });
  let organizer: Page;
  let visitor: Page;
  let buildA = '';

  afterAll(() => rmSync(site, { recursive: true, force: true }));

  beforeAll(async () => {
    organizer = await journey.newPage();
    await signUpAndVerify(organizer, { name: 'Rosa Rollout', email: 'rosa@example.test' });
    await callAs(organizer)('orgs.create', { name: 'Rolling Club' });
    // Both open the app on the build they found, and leave it open.
    await organizer.goto('/');
    await organizer.getByRole('link', { name: 'My tickets' }).waitFor();
    await mark(organizer);
    visitor = await journey.newPage();
    await visitor.goto('/');
    await visitor.getByRole('link', { name: 'Sign up' }).waitFor();
    await mark(visitor);
    buildA = await entryScript(visitor);

    // The next release: every chunk gets a new name. Then the server restarts onto it.
    const built = spawnSync(process.execPath, ['scripts/build-web.mjs', '--out-dir', dist], {
      cwd: root,
      env: { ...process.env, ADMIT_RELEASE: 'next' },
      encoding: 'utf8',
    });
    expect(built.status, built.stderr).toBe(0);
    await journey.stopServer();
    await journey.startServer();
  }, 300_000);

  it('opens five screens never opened before on a page of the earlier build, without reloading it', async () => {
    const page = organizer;
    const seen: string[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/assets/'))
        seen.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    const opened = async (path: RegExp) => {
      await page.waitForURL(path);
      await page.locator('main h1').first().waitFor();
      await expect(page.getByRole('heading', { name: 'This page could not be shown' }).count()).resolves.toBe(0);
    };
    await page.getByRole('link', { name: 'My tickets' }).click();
    await opened(/\/tickets$/);
    await page.getByRole('link', { name: 'Organize' }).click();
    await opened(/\/manage$/);
    await page.getByRole('link', { name: 'Rolling Club' }).first().click();
    await opened(/\/manage\/orgs\//);
    await page.getByRole('link', { name: 'Accessibility' }).click();
    await opened(/\/accessibility$/);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Account' }).click();
    await opened(/\/account$/);

    // The same page all along, on its own build's chunks, none of which the new build has.
    expect(await stillMarked(page)).toBe(true);
    const current = new Set(readdirSync(path.join(dist, 'assets')));
    const screens = seen.filter((line) =>
      /\/(my-tickets-page|orgs-page|org-events-page|accessibility-page|account-page)-/.test(line),
    );
    expect(screens.length).toBeGreaterThanOrEqual(5);
    for (const line of screens) {
      expect(line).toMatch(/^200 /);
      expect(current.has(line.split('/assets/')[1]!)).toBe(false);
    }
  });

  it('keeps what was typed in a form across the reload for a missing chunk, and gives it back once', async () => {
    const page = organizer;
    await page.getByRole('link', { name: 'Organize' }).click();
    await page.getByRole('link', { name: 'Rolling Club' }).first().click();
    const title = page.getByLabel('Title');
    await title.fill('Draft night');
    await page.getByLabel('Venue').fill('The Old Mill');
    const formAddress = page.url();
    // The earlier build's members screen, gone from the archive: opening it reloads the page.
    const archive = path.join(site, 'dist-archive', 'assets');
    for (const file of chunkFiles(archive, 'members-page')) rmSync(path.join(archive, file));
    let loads = 0;
    page.on('load', () => loads++);
    await page.getByRole('link', { name: 'Members' }).click();
    await expect.poll(() => loads, { timeout: 30_000 }).toBe(1);
    await page.locator('main h1').first().waitFor();
    expect(await stillMarked(page)).toBe(false);
    if (page.url() !== formAddress) await page.goBack();
    await expect.poll(() => title.inputValue(), { timeout: 10_000 }).toBe('Draft night');
    expect(await page.getByLabel('Venue').inputValue()).toBe('The Old Mill');
    // Once: the page opened again starts from an empty form.
    await page.reload();
    await title.waitFor();
    expect(await title.inputValue()).toBe('');
  });

  it('reloads once onto the new build when a chunk is gone all the same, and never again for that build', async () => {
    // The earlier build's sign-up screen, gone from the archive (as after a week).
    const archive = path.join(site, 'dist-archive', 'assets');
    for (const file of chunkFiles(archive, 'sign-up-page')) rmSync(path.join(archive, file));
    let loads = 0;
    visitor.on('load', () => loads++);
    await visitor.getByRole('link', { name: 'Sign up' }).click();
    // It lands where it was going, on the new build.
    await visitor.getByRole('heading', { name: 'Create your Admit account' }).waitFor({ timeout: 30_000 });
    expect(new URL(visitor.url()).pathname).toBe('/sign-up');
    expect(await stillMarked(visitor)).toBe(false);
    expect(await entryScript(visitor)).not.toBe(buildA);
    expect(loads).toBe(1);

    // A chunk of the new build gone too: one reload for this build, then the route's error, no loop.
    const assets = path.join(dist, 'assets');
    for (const file of chunkFiles(assets, 'forgot-password-page')) rmSync(path.join(assets, file));
    await visitor.getByRole('link', { name: 'Sign in' }).first().click();
    await visitor.getByRole('link', { name: /forgot/i }).click();
    await visitor.getByRole('heading', { name: 'This page could not be shown' }).waitFor({ timeout: 30_000 });
    await visitor.waitForTimeout(1_000);
    expect(loads).toBe(2);
    expect(new URL(visitor.url()).pathname).toBe('/forgot-password');
  });
});
