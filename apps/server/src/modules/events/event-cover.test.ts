import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { createOrder } from '@admit/shared/orders';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { file } from '../../platform/files/schema';
import { deleteFileJob } from '../../platform/files/uploads';
import { organization } from '../../platform/auth/organization-schema';
import { addMember, createPublishedEvent } from '../../testing/fixtures';
import { hugePng, photoWithLocation } from '../../testing/images';
import { startS3StandIn } from '../../testing/s3-stand-in';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event } from './schema';

// Covers and logos through their routes: who may upload, what is stored and served, what a bad
// upload leaves behind (nothing), and that replacing or removing a picture cleans up its variants.

type Person = Awaited<ReturnType<TestApp['signUp']>>;
let t: TestApp;
let url: string;
let owner: Person;
let staff: Person;

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, staff] = await Promise.all([t.signUp('Olga Owner'), t.signUp('Sam Staff')]);
});
afterAll(() => t?.close());

const upload = (target: string, body: Buffer, cookie?: string, query = '') =>
  t.app.inject({
    method: 'PUT',
    url: `${target}${query}`,
    headers: { 'content-type': 'image/jpeg', origin: 'http://localhost:3000', ...(cookie ? { cookie } : {}) },
    payload: body,
  });
const storedFiles = async () =>
  (await readdir(path.join(t.config.DATA_DIR, 'files', 'images')).catch(() => [] as string[])).sort();

describe('an event’s cover', () => {
  it('is uploaded by an admin, shown live on the public page with its variants, and served for a year', async () => {
    const created = await createPublishedEvent(t, owner.cookie);
    const page = await watch(url, 'events.public', { slug: created.slug });

    const answer = await upload(
      `/files/events/${created.eventId}/cover`,
      await photoWithLocation(2400, 1200),
      owner.cookie,
      '?focalX=0.3&focalY=0.6',
    );

    expect(answer.statusCode).toBe(201);
    await expect.poll(() => page.rows()[0]?.cover, { timeout: 5_000 }).toMatchObject({ width: 2400, height: 1200, focalX: 0.3 });
    const cover = page.rows()[0]!.cover as { variants: { url: string; width: number; format: string }[] };
    page.close();
    expect(cover.variants.map((one) => `${one.width}.${one.format}`)).toEqual([
      '400.webp',
      '400.jpeg',
      '800.webp',
      '800.jpeg',
      '1600.webp',
      '1600.jpeg',
    ]);
    const served = await t.app.inject({ method: 'GET', url: cover.variants[0]!.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await sharp(served.rawPayload).metadata()).exif).toBeUndefined();
  });

  it('is refused to staff and to a bad file, and a refused upload stores nothing', async () => {
    const created = await createPublishedEvent(t, owner.cookie);
    await addMember(t, created.organizationId, staff.user.id, 'staff');
    const filesBefore = await storedFiles();
    const rowsBefore = (await t.db.select().from(file)).length;

    expect(
      (await upload(`/files/events/${created.eventId}/cover`, await photoWithLocation(800, 400), staff.cookie)).statusCode,
    ).toBe(403);
    expect((await upload(`/files/events/${created.eventId}/cover`, await photoWithLocation(800, 400))).statusCode).toBe(401);
    const bomb = await upload(`/files/events/${created.eventId}/cover`, hugePng(50_000, 50_000), owner.cookie);
    expect(bomb.statusCode).toBe(400);
    expect(bomb.json()).toMatchObject({ error: { details: { reason: 'too-many-pixels' } } });
    const notImage = await upload(`/files/events/${created.eventId}/cover`, Buffer.from('GIF89a… not really'), owner.cookie);
    expect(notImage.json()).toMatchObject({ error: { details: { reason: 'not-an-image' } } });
    const focus = await upload(
      `/files/events/${created.eventId}/cover`,
      await photoWithLocation(800, 400),
      owner.cookie,
      '?focalX=7',
    );
    expect(focus.statusCode).toBe(400);

    expect(await storedFiles()).toEqual(filesBefore);
    expect((await t.db.select().from(file)).length).toBe(rowsBefore);
    expect((await t.db.select().from(event).where(eq(event.id, created.eventId)))[0]!.coverFile).toBeNull();
  });

  it('over FILE_MAX_BYTES, is refused with 400 and the reason too-large, as any other refused upload', async () => {
    const created = await createPublishedEvent(t, owner.cookie);
    const filesBefore = await storedFiles();

    const answer = await upload(
      `/files/events/${created.eventId}/cover`,
      Buffer.alloc(t.config.FILE_MAX_BYTES + 1, 0xff),
      owner.cookie,
    );

    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ error: { status: 'INVALID_ARGUMENT', details: { reason: 'too-large' } } });
    expect(await storedFiles()).toEqual(filesBefore);
    const logo = await upload(
      `/files/orgs/${created.organizationId}/logo`,
      Buffer.alloc(t.config.FILE_MAX_BYTES + 1),
      owner.cookie,
    );
    expect(logo.json()).toMatchObject({ error: { details: { reason: 'too-large' } } });
  });

  it('replaced or removed, leaves no variant of the old picture behind', async () => {
    const created = await createPublishedEvent(t, owner.cookie);
    const target = `/files/events/${created.eventId}/cover`;
    const first = (await upload(target, await photoWithLocation(900, 500), owner.cookie)).json() as { fileId: string };
    const [firstRow] = await t.db.select().from(file).where(eq(file.id, first.fileId));
    const firstKeys = firstRow!.variants.map((one) => path.basename(one.key));
    expect(await storedFiles()).toEqual(expect.arrayContaining(firstKeys));

    await upload(
      target,
      await sharp({ create: { width: 900, height: 500, channels: 3, background: '#123' } })
        .png()
        .toBuffer(),
      owner.cookie,
    );
    await t.settleJobs();
    expect(await storedFiles()).not.toEqual(expect.arrayContaining([firstKeys[0]]));
    expect(await t.db.select().from(file).where(eq(file.id, first.fileId))).toEqual([]);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: target,
      headers: { cookie: owner.cookie, origin: 'http://localhost:3000' },
    });
    expect(removed.statusCode).toBe(204);
    await t.settleJobs();
    expect((await t.db.select().from(event).where(eq(event.id, created.eventId)))[0]!.coverFile).toBeNull();
    expect(await t.db.select().from(file).where(eq(file.organizationId, created.organizationId))).toEqual([]);
  });
});

describe('the confirmation email and the tickets PDF', () => {
  it('show the event’s cover and the organization’s logo', async () => {
    const created = await createPublishedEvent(t, owner.cookie);
    await upload(`/files/events/${created.eventId}/cover`, await photoWithLocation(1600, 900), owner.cookie);
    await upload(`/files/orgs/${created.organizationId}/logo`, await photoWithLocation(256, 256), owner.cookie);
    const buyer = await t.signUp('Bea Buyer');
    const ordered = await t.call(
      createOrder,
      { eventId: created.eventId, lines: [{ ticketTypeId: created.ticketTypeIds[0]!, quantity: 1 }] },
      buyer.cookie,
    );
    expect(ordered.body.result.status).toBe('paid');
    await t.settleJobs();

    const email = await t.lastMessageTo(buyer.email);
    const [coverFile] = await t.db.select().from(file).where(eq(file.purpose, 'event-cover'));
    expect(email.html).toMatch(/<img[^>]+src="http:\/\/localhost:3000\/files\/i\/[0-9a-f]{24}-800\.jpg"/);
    expect(email.html).toMatch(/<img[^>]+src="http:\/\/localhost:3000\/files\/i\/[0-9a-f]{24}-256\.jpg"/);
    expect(coverFile).toBeDefined();
    const pdf = Buffer.from(email.attachments.find((one) => one.contentType === 'application/pdf')!.contentBase64, 'base64');
    expect(pdf.toString('latin1').match(/\/Subtype \/Image/g)).toHaveLength(2);
  });
});

describe('an organization’s logo', () => {
  it('is uploaded by an admin and shown on its events’ public pages', async () => {
    const created = await createPublishedEvent(t, owner.cookie);
    const answer = await upload(`/files/orgs/${created.organizationId}/logo`, await photoWithLocation(512, 512), owner.cookie);
    expect(answer.statusCode).toBe(201);
    const [org] = await t.db.select().from(organization).where(eq(organization.id, created.organizationId));
    expect(org!.logo).toBe((answer.json() as { fileId: string }).fileId);
    const page = await watch(url, 'events.public', { slug: created.slug });
    await expect.poll(() => page.rows()[0]?.organizationLogo, { timeout: 5_000 }).toMatchObject({ width: 512 });
    page.close();
  });
});

// Two file rows may hold the same bytes: the same cover uploaded again (to move its focal point),
// or the same picture uploaded by another organization. Deleting one must not take the other's
// variants, on either storage driver.
const drivers: [string, () => Promise<{ env: Record<string, string>; close(): Promise<void> }>][] = [
  ['the local disk', async () => ({ env: {}, close: async () => {} })],
  [
    'S3 (s3rver)',
    async () => {
      const standIn = await startS3StandIn();
      const { endpoint, region, bucket, accessKeyId, secretAccessKey } = standIn.settings;
      return {
        env: {
          STORAGE_DRIVER: 's3',
          S3_ENDPOINT: endpoint!,
          S3_REGION: region,
          S3_BUCKET: bucket,
          S3_ACCESS_KEY_ID: accessKeyId!,
          S3_SECRET_ACCESS_KEY: secretAccessKey!,
          S3_FORCE_PATH_STYLE: 'true',
        },
        close: () => standIn.close(),
      };
    },
  ],
];

describe.each(drivers)('the same bytes in two pictures, on %s', (_name, open) => {
  let shared: TestApp;
  let closeStorage: () => Promise<void>;
  let admin: Person;
  let otherAdmin: Person;
  beforeAll(async () => {
    const storage = await open();
    closeStorage = storage.close;
    shared = await createTestApp({ env: storage.env });
    [admin, otherAdmin] = await Promise.all([shared.signUp('Ada Admin'), shared.signUp('Otto Other')]);
  });
  afterAll(async () => {
    await shared?.close();
    await closeStorage?.();
  });

  const put = (target: string, body: Buffer, cookie: string, query = '') =>
    shared.app.inject({
      method: 'PUT',
      url: `${target}${query}`,
      headers: { 'content-type': 'image/jpeg', origin: 'http://localhost:3000', cookie },
      payload: body,
    });
  /** The status of every variant of the event's current cover, as a page would fetch them. */
  async function servedVariantsOf(eventId: string) {
    const [row] = await shared.db.select().from(event).where(eq(event.id, eventId));
    const [cover] = await shared.db.select().from(file).where(eq(file.id, row!.coverFile!));
    return Promise.all(
      cover!.variants.map(
        async (variant) => (await shared.app.inject({ method: 'GET', url: `/files/i/${path.basename(variant.key)}` })).statusCode,
      ),
    );
  }

  it('uploaded again to move its focal point, every variant of the new cover is still served', async () => {
    const created = await createPublishedEvent(shared, admin.cookie);
    const target = `/files/events/${created.eventId}/cover`;
    const picture = await photoWithLocation(1000, 500);
    expect((await put(target, picture, admin.cookie, '?focalX=0.2')).statusCode).toBe(201);
    expect((await put(target, picture, admin.cookie, '?focalX=0.8')).statusCode).toBe(201);
    await shared.settleJobs();

    const statuses = await servedVariantsOf(created.eventId);
    expect(statuses.length).toBeGreaterThanOrEqual(4);
    expect(statuses).toEqual(statuses.map(() => 200));
  });

  it('uploaded and removed by another organization, leaves this organization’s cover served', async () => {
    const mine = await createPublishedEvent(shared, admin.cookie);
    const theirs = await createPublishedEvent(shared, otherAdmin.cookie);
    const picture = await photoWithLocation(1200, 600);
    expect((await put(`/files/events/${mine.eventId}/cover`, picture, admin.cookie)).statusCode).toBe(201);

    expect((await put(`/files/events/${theirs.eventId}/cover`, picture, otherAdmin.cookie)).statusCode).toBe(201);
    const removed = await shared.app.inject({
      method: 'DELETE',
      url: `/files/events/${theirs.eventId}/cover`,
      headers: { cookie: otherAdmin.cookie, origin: 'http://localhost:3000' },
    });
    expect(removed.statusCode).toBe(204);
    await shared.settleJobs();

    const statuses = await servedVariantsOf(mine.eventId);
    expect(statuses.length).toBeGreaterThanOrEqual(4);
    expect(statuses).toEqual(statuses.map(() => 200));
  });

  it('deletes no object another file row still names (rows stored when variants were named by content)', async () => {
    const created = await createPublishedEvent(shared, admin.cookie);
    expect(
      (await put(`/files/events/${created.eventId}/cover`, await photoWithLocation(900, 450), admin.cookie)).statusCode,
    ).toBe(201);
    const [row] = await shared.db.select().from(event).where(eq(event.id, created.eventId));
    const [cover] = await shared.db.select().from(file).where(eq(file.id, row!.coverFile!));
    const twinId = randomUUID();
    await shared.db.insert(file).values({ ...cover!, id: twinId });

    await shared.jobs.enqueue(shared.db, deleteFileJob, { fileId: twinId });
    await shared.settleJobs();

    expect(await shared.db.select().from(file).where(eq(file.id, twinId))).toEqual([]);
    const statuses = await servedVariantsOf(created.eventId);
    expect(statuses).toEqual(statuses.map(() => 200));
  });
});
