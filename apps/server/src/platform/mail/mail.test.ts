import { catalogProblems } from '@admit/shared/catalog-check';
import { createOrg, inviteMember } from '@admit/shared/orgs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import ar from './locales/ar.json';
import de from './locales/de.json';
import es from './locales/es.json';
import fr from './locales/fr.json';
import ja from './locales/ja.json';
import { mailMessages } from './messages';

let t: TestApp;
const origin = 'http://localhost:3000';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const latest = (to: string, channel: 'email' | 'sms' = 'email') => t.lastMessageTo(to, channel);

const authPost = (path: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/auth${path}`,
    headers: { 'content-type': 'application/json', origin, ...headers },
    payload: JSON.stringify(payload),
  });

describe('the catalogs of emails and text messages', () => {
  const english = Object.fromEntries(Object.values(mailMessages).map((message) => [message.id, message.defaultMessage]));
  const translations = { de, fr, es, ja, ar } as Record<string, Record<string, string>>;

  it.each(Object.keys(translations))(
    'translates every message into %s, with its arguments and every plural form of the language, and nothing else',
    (locale) => {
      expect(catalogProblems(english, translations[locale]!, locale)).toEqual([]);
    },
  );
});

describe('emails', () => {
  it('are a clean HTML email with a plain-text part that carries the same link', async () => {
    const email = 'html@example.test';
    await authPost('/sign-up/email', { name: 'Hanna Html', email, password: 'correct horse battery', callbackURL: '/' });
    const message = await latest(email);
    expect(message.subject).toBe('Verify your email for Admit');
    expect(message.html).toMatch(/^<!DOCTYPE html/i);
    expect(message.html).toContain('<html dir="ltr" lang="en"');
    expect(message.html).toContain('Hello Hanna Html,');
    const link = message.text.match(/https?:\/\/\S+/)![0];
    expect(link).toContain('/api/auth/verify-email?token=');
    expect(message.html).toContain(`href="${link.replaceAll('&', '&amp;')}"`);
    expect(message.text).toContain('Verify my email');
    // The HTML spells the link out under the button; the text part already has it once.
    expect(message.html).toContain('If the button does not work');
    expect(message.text.match(/https?:\/\//g)).toHaveLength(1);
    expect(message.text).not.toMatch(/<[a-z]/i);
  });

  it('escape what a person typed, such as their name', async () => {
    const email = 'escape@example.test';
    await authPost('/sign-up/email', { name: '<b>Bold</b>', email, password: 'correct horse battery', callbackURL: '/' });
    const message = await latest(email);
    expect(message.html).not.toContain('<b>Bold</b>');
    expect(message.html).toContain('&lt;b&gt;Bold&lt;/b&gt;');
  });

  it("are written in the app's language, from its language cookie", async () => {
    const email = 'deutsch@example.test';
    await authPost(
      '/sign-up/email',
      { name: 'Dora', email, password: 'correct horse battery', callbackURL: '/' },
      { cookie: 'admit.locale=de', 'accept-language': 'en' },
    );
    const message = await latest(email);
    expect(message.subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse für Admit');
    expect(message.html).toContain('<html dir="ltr" lang="de"');
    expect(message.text).toContain('Hallo Dora,');
    expect(message.text).toContain('E-Mail-Adresse bestätigen');
  });

  it("follow the browser's languages without the cookie, and English when Admit speaks none of them", async () => {
    await authPost(
      '/sign-in/magic-link',
      { email: 'at@example.test', callbackURL: '/' },
      { 'accept-language': 'pt-BR, de-AT;q=0.8' },
    );
    expect((await latest('at@example.test')).subject).toBe('Ihr Anmeldelink für Admit');
    await authPost('/sign-in/magic-link', { email: 'ch@example.test', callbackURL: '/' }, { 'accept-language': 'fr-CH, de' });
    expect((await latest('ch@example.test')).subject).toBe(fr['mail.link.subject']);
    await authPost('/sign-in/magic-link', { email: 'pt@example.test', callbackURL: '/' }, { 'accept-language': 'pt, ko' });
    expect((await latest('pt@example.test')).subject).toBe('Your sign-in link for Admit');
  });

  it('are written right to left in Arabic, with the name set in its own direction', async () => {
    const email = 'arabic@example.test';
    await authPost(
      '/sign-up/email',
      { name: 'Layla M.', email, password: 'correct horse battery', callbackURL: '/' },
      { cookie: 'admit.locale=ar' },
    );
    const message = await latest(email);
    expect(message.subject).toBe(ar['mail.verify.subject']);
    expect(message.html).toContain('<html dir="rtl" lang="ar"');
    expect(message.html).toMatch(/<table[^>]*dir="rtl"/);
    // The Latin name inside the Arabic greeting, between a first-strong isolate and its end.
    expect(message.text).toContain('\u2068Layla M.\u2069');
    expect(message.text).toMatch(/[\u0600-\u06ff]/);
  });

  it('say when an invitation expires, in German too', async () => {
    const owner = await t.signUp('Olga Owner');
    const { body } = await t.call(createOrg, { name: 'Kulturhaus' }, owner.cookie);
    await t.call(
      inviteMember,
      { organizationId: body.result.organizationId, email: 'eingeladen@example.test', role: 'staff' },
      `${owner.cookie}; admit.locale=de`,
    );
    await t.settleJobs();
    const message = await latest('eingeladen@example.test');
    expect(message.subject).toBe('Olga Owner hat Sie zu Kulturhaus auf Admit eingeladen');
    expect(message.text).toContain('Olga Owner hat Sie eingeladen, Kulturhaus auf Admit als Einlasspersonal beizutreten.');
    expect(message.text).toMatch(/Die Einladung läuft am \d{1,2}\. \S+ \d{4} um \d{2}:\d{2} UTC ab\./);
    expect(message.text).toContain(`${origin}/manage`);
  });
});

describe('text messages', () => {
  it('carry the sign-in code in the person’s language', async () => {
    const phoneNumber = '+491510000999';
    await authPost('/phone-number/send-otp', { phoneNumber }, { cookie: 'admit.locale=de' });
    expect((await latest(phoneNumber, 'sms')).text).toMatch(/^\d{6} ist Ihr Admit-Anmeldecode\. Er läuft in 5 Minuten ab\.$/);
    await authPost('/phone-number/send-otp', { phoneNumber });
    expect((await latest(phoneNumber, 'sms')).text).toMatch(/^\d{6} is your Admit sign-in code\. It expires in 5 minutes\.$/);
    await authPost('/phone-number/send-otp', { phoneNumber }, { cookie: 'admit.locale=ja' });
    const japanese = (await latest(phoneNumber, 'sms')).text;
    const code = japanese.match(/\d{6}/)![0];
    expect(japanese).toBe(ja['sms.code'].replace('{code}', code));
  });
});
