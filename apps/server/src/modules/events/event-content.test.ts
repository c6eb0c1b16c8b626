import { cancelEvent } from '@admit/shared/event-changes';
import { setEventContent, type SetEventContentInput } from '@admit/shared/event-content';
import { createOrder } from '@admit/shared/orders';
import { asc, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/schema';
import { addMember, createEventAs, createOrgAs, createPublishedEvent } from '../../testing/fixtures';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event, ticketType } from './schema';

// An event in several languages: its admins set its main language and its translations, every
// screen that shows the event gets them live, and the buyer's emails and tickets use the order's
// language where the event has it (decision 0040).

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;
let url: string;
let owner: Person;
let admin: Person;
let staff: Person;
let outsider: Person;

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, admin, staff, outsider] = await Promise.all([
    t.signUp('Olivia Owner'),
    t.signUp('Adam Admin'),
    t.signUp('Sam Staff'),
    t.signUp('Oscar Outsider'),
  ]);
});
afterAll(() => t?.close());

/** A published "Jazz night" at "Club Blau" in English, with a free "Standing" and a free "Seated" type. */
async function jazzNight() {
  const created = await createPublishedEvent(t, owner.cookie, {
    capacity: 50,
    ticketTypes: [
      { name: 'Standing', capacity: 30 },
      { name: 'Seated', capacity: 20 },
    ],
  });
  await addMember(t, created.organizationId, admin.user.id, 'admin');
  await addMember(t, created.organizationId, staff.user.id, 'staff');
  const [standing, seated] = created.ticketTypeIds as [string, string];
  return { ...created, standing, seated };
}

/** Jazz night in French and German, with the standing places' name in French. */
const frenchAndGerman = (created: Awaited<ReturnType<typeof jazzNight>>): SetEventContentInput => ({
  eventId: created.eventId,
  contentLocale: 'en',
  translations: {
    fr: { title: 'Soirée jazz', description: 'Un quartette, toute la nuit.', venue: 'Club Blau, salle 2' },
    de: { title: 'Jazzabend', venue: 'Club Blau' },
  },
  ticketTypes: [{ ticketTypeId: created.standing, nameTranslations: { fr: 'Debout' } }],
});

const stored = async (eventId: string) => (await t.db.select().from(event).where(eq(event.id, eventId)))[0]!;
const storedNames = async (eventId: string) =>
  (await t.db.select().from(ticketType).where(eq(ticketType.eventId, eventId)).orderBy(asc(ticketType.position))).map(
    (type) => type.nameTranslations,
  );
const auditOf = (eventId: string) => t.db.select().from(auditLog).where(eq(auditLog.eventId, eventId)).orderBy(asc(auditLog.at));

describe('setting the languages of an event', () => {
  it('stores the translations of the event and its ticket types, sends them live to open screens and records the change', async () => {
    const created = await jazzNight();
    const page = await watch(url, 'events.public', { slug: created.slug });
    const list = await watch(url, 'events.published', {});
    const picker = await watch(url, 'events.availability', { eventId: created.eventId });
    const managed = await watch(url, 'events.managed', { eventId: created.eventId }, admin.cookie);
    const types = await watch(url, 'events.ticketTypes', { eventId: created.eventId }, admin.cookie);
    expect(page.rows()[0]).toMatchObject({ contentLocale: 'en', translations: {} });

    const { body } = await t.call(setEventContent, frenchAndGerman(created), admin.cookie);

    expect(body.result).toEqual({ changed: true });
    const french = { title: 'Soirée jazz', description: 'Un quartette, toute la nuit.', venue: 'Club Blau, salle 2' };
    await expect.poll(() => page.rows()[0]?.translations?.fr, { timeout: 5_000 }).toEqual(french);
    expect(page.rows()[0].translations.de).toEqual({ title: 'Jazzabend', description: '', venue: 'Club Blau' });
    await expect
      .poll(() => list.rows().find((row) => row.id === created.eventId)?.translations?.de?.title, { timeout: 5_000 })
      .toBe('Jazzabend');
    await expect
      .poll(() => picker.rows().map((row) => [row.name, row.nameTranslations]), { timeout: 5_000 })
      .toEqual([
        ['Standing', { fr: 'Debout' }],
        ['Seated', {}],
      ]);
    await expect.poll(() => managed.rows()[0]?.translations?.fr?.title, { timeout: 5_000 }).toBe('Soirée jazz');
    expect(managed.rows()[0].contentLocale).toBe('en');
    await expect.poll(() => types.rows()[0]?.nameTranslations, { timeout: 5_000 }).toEqual({ fr: 'Debout' });
    for (const watched of [page, list, picker, managed, types]) watched.close();

    const changes = await auditOf(created.eventId);
    expect(changes.at(-1)).toMatchObject({
      action: 'event.setContent',
      actorName: 'Adam Admin',
      target: 'Jazz night',
      details: {
        contentLocale: { from: 'en', to: 'en' },
        languages: { from: [], to: ['de', 'fr'] },
        ticketTypes: ['Standing'],
      },
    });

    // The same set again changes nothing and writes no second line.
    expect((await t.call(setEventContent, frenchAndGerman(created), owner.cookie)).body.result).toEqual({ changed: false });
    expect(await auditOf(created.eventId)).toHaveLength(changes.length);
  });

  it('removes the languages and names left out, and changes the main language', async () => {
    const created = await jazzNight();
    await t.call(setEventContent, frenchAndGerman(created), admin.cookie);

    const { body } = await t.call(
      setEventContent,
      {
        eventId: created.eventId,
        contentLocale: 'de',
        translations: { en: { title: 'Jazz night', venue: 'Club Blau' } },
        ticketTypes: [],
      },
      admin.cookie,
    );

    expect(body.result).toEqual({ changed: true });
    expect(await stored(created.eventId)).toMatchObject({
      contentLocale: 'de',
      translations: { en: { title: 'Jazz night', description: '', venue: 'Club Blau' } },
    });
    expect(await storedNames(created.eventId)).toEqual([{}, {}]);
  });

  it('takes the main language given at creation, and English when none is given', async () => {
    const { organizationId } = await createOrgAs(t, owner.cookie, 'Bilingual Hall');
    const german = await createEventAs(t, owner.cookie, organizationId, { title: 'Jazzabend', contentLocale: 'de' });
    const unsaid = await createEventAs(t, owner.cookie, organizationId);

    expect((await stored(german.eventId)).contentLocale).toBe('de');
    expect((await stored(unsaid.eventId)).contentLocale).toBe('en');
  });

  it('refuses a translation into the main language, an unknown language, text over the limits and names in no language of the event', async () => {
    const created = await jazzNight();
    const refusal = async (input: unknown) => {
      const { status, body } = await t.callWithAnyInput(setEventContent, input, admin.cookie);
      expect(status).toBe(400);
      expect(body.error.status).toBe('invalid-argument');
      return (body.error.details.fields as { path: string }[]).map((field) => field.path);
    };
    const valid = frenchAndGerman(created);

    expect(
      await refusal({ ...valid, translations: { ...valid.translations, en: { title: 'Jazz night', venue: 'Club' } } }),
    ).toEqual(['translations.en']);
    expect(
      await refusal({ ...valid, translations: { it: { title: 'Serata jazz', venue: 'Club Blau' } }, ticketTypes: [] }),
    ).toEqual(['translations']);
    expect(await refusal({ ...valid, contentLocale: 'it' })).toEqual(['contentLocale']);
    expect(
      await refusal({
        ...valid,
        translations: { fr: { title: 'S'.repeat(201), description: 'd'.repeat(10_001), venue: '' } },
      }),
    ).toEqual(['translations.fr.title', 'translations.fr.description', 'translations.fr.venue']);
    expect(
      await refusal({ ...valid, ticketTypes: [{ ticketTypeId: created.standing, nameTranslations: { fr: 'D'.repeat(101) } }] }),
    ).toEqual(['ticketTypes.0.nameTranslations.fr']);
    // A name in Spanish, which the event is not translated into, or in the main language itself.
    expect(
      await refusal({
        ...valid,
        ticketTypes: [{ ticketTypeId: created.standing, nameTranslations: { es: 'De pie', en: 'Standing' } }],
      }),
    ).toEqual(['ticketTypes.0.nameTranslations.es', 'ticketTypes.0.nameTranslations.en']);

    expect(await stored(created.eventId)).toMatchObject({ contentLocale: 'en', translations: {} });
    expect(await storedNames(created.eventId)).toEqual([{}, {}]);
  });

  it('refuses a ticket type of another event, staff and outsiders', async () => {
    const created = await jazzNight();
    const other = await jazzNight();
    const foreign = await t.call(
      setEventContent,
      { ...frenchAndGerman(created), ticketTypes: [{ ticketTypeId: other.standing, nameTranslations: { fr: 'Debout' } }] },
      admin.cookie,
    );
    expect(foreign.body.error).toMatchObject({
      status: 'invalid-argument',
      details: { fields: [{ path: 'ticketTypes.0.ticketTypeId' }] },
    });
    expect(await storedNames(other.eventId)).toEqual([{}, {}]);

    expect((await t.call(setEventContent, frenchAndGerman(created), staff.cookie)).body.error?.status).toBe('permission-denied');
    expect((await t.call(setEventContent, frenchAndGerman(created), outsider.cookie)).body.error?.status).toBe('not-found');
    expect(await stored(created.eventId)).toMatchObject({ translations: {} });
  });
});

describe('what the buyer is sent', () => {
  /** A free order of one standing place, by a new buyer whose app speaks `locale`; its confirmation sent. */
  async function freeOrderIn(created: Awaited<ReturnType<typeof jazzNight>>, locale: string) {
    const buyer = await t.signUp(`Buyer ${locale}`);
    const cookie = `${buyer.cookie}; admit.locale=${locale}`;
    const ordered = await t.call(
      createOrder,
      { eventId: created.eventId, lines: [{ ticketTypeId: created.standing, quantity: 1 }] },
      cookie,
    );
    expect(ordered.body.result.status).toBe('paid');
    await t.settleJobs();
    return { ...buyer, orderId: ordered.body.result.orderId };
  }

  const pdfTitleOf = async (message: Awaited<ReturnType<TestApp['lastMessageTo']>>) => {
    const attachment = message.attachments.find((candidate) => candidate.contentType === 'application/pdf');
    if (!attachment) throw new Error('no PDF attached');
    return (await PDFDocument.load(Buffer.from(attachment.contentBase64, 'base64'))).getTitle();
  };

  it('writes about the event in French to a French order, and in the main language to a Japanese one', async () => {
    const created = await jazzNight();
    await t.call(setEventContent, frenchAndGerman(created), admin.cookie);
    const french = await freeOrderIn(created, 'fr');
    const japanese = await freeOrderIn(created, 'ja');

    const toFrench = await t.lastMessageTo(french.email);
    expect(toFrench.subject).toContain('Soirée jazz');
    expect(toFrench.text).toContain('Club Blau, salle 2');
    expect(toFrench.text).toContain('Debout');
    expect(toFrench.text).not.toContain('Standing');
    expect(toFrench.html).toContain('Soirée jazz');
    expect(await pdfTitleOf(toFrench)).toContain('Soirée jazz');

    const toJapanese = await t.lastMessageTo(japanese.email);
    expect(toJapanese.subject).toContain('Jazz night');
    expect(toJapanese.text).toContain('Standing');
    expect(toJapanese.text).not.toMatch(/Soirée jazz|Debout|salle 2/);
    expect(await pdfTitleOf(toJapanese)).toContain('Jazz night');

    // The cancellation is told in the same languages.
    expect((await t.call(cancelEvent, { eventId: created.eventId }, admin.cookie)).status).toBe(200);
    await t.settleJobs();
    expect((await t.lastMessageTo(french.email)).subject).toContain('Soirée jazz');
    const cancelledJapanese = await t.lastMessageTo(japanese.email);
    expect(cancelledJapanese.subject).toContain('Jazz night');
    expect(cancelledJapanese.subject).not.toBe(toJapanese.subject);
  });
});
