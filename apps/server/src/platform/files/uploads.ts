import { randomUUID } from 'node:crypto';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SessionUser } from '../auth/auth';
import type { Config } from '../config';
import type { Db, Tx } from '../db/database';
import { CallableError } from '../http/callable-error';
import { sendError } from '../http/send-error';
import { defineJob } from '../jobs/job-services';
import type { JobSender } from '../jobs/job-queue';
import { ImageRefused, processImage } from './images';
import { file } from './schema';
import { isStorageKey, type FileStorage } from './storage';

// Uploads of public images (an event's cover, an organization's logo) and their serving. The
// module that owns the picture (events, orgs) says who may change it and where its file id lives;
// this file does the rest the same way for both. Decision 0037.

export interface FileRouteDeps {
  db: Db;
  storage: FileStorage;
  config: Pick<Config, 'FILE_MAX_BYTES' | 'IMAGE_MAX_PIXELS'>;
  jobs: JobSender;
  getUser(request: FastifyRequest): Promise<SessionUser | null>;
  originAllowed(request: FastifyRequest): boolean;
  publish(...topics: string[]): void;
}

/** One kind of picture: where it hangs (`/files/events/:id/cover`) and how its owner is checked and changed. */
export interface PictureSlot {
  /** The route's path with its `:id`, e.g. `/files/events/:id/cover`. */
  path: string;
  purpose: string;
  /** The owner's organization, after checking the user may change the picture (throws CallableError otherwise). */
  authorize(db: Db, user: SessionUser, id: string): Promise<{ organizationId: string }>;
  /** Points the owner at the new file (or none) in the transaction; returns the file it pointed at before. */
  attach(tx: Tx, id: string, fileId: string | null, user: SessionUser): Promise<string | null>;
  /** The topics whose live queries show the picture. */
  topics(db: Db, id: string, organizationId: string): Promise<string[]> | string[];
}

const Focus = z.coerce.number().min(0).max(1).default(0.5);
const UploadQuery = z.object({ focalX: Focus, focalY: Focus });
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const idPattern = /^[^\u0000-\u001f\u007f/]{1,64}$/;

const refusalMessages: Record<ImageRefused['reason'], string> = {
  'too-large': 'The image is too large',
  'not-an-image': 'This file is not an image',
  'unsupported-type': 'Use a JPEG, PNG, WebP or AVIF image',
  'too-many-pixels': 'The image has too many pixels',
  damaged: 'The image is damaged or incomplete',
};

/**
 * Deletes a replaced or removed picture's variants, then its row. Enqueued in the change's
 * transaction. Variants are named for their upload alone, but rows stored before that were named by
 * their content's hash and may share objects with rows of the same bytes: those objects are kept
 * while another row names them. No new row can come to name them, so the check cannot race.
 */
export const deleteFileJob = defineJob({
  name: 'files.delete',
  data: z.object({ fileId: z.string() }),
  retryLimit: 10,
  retryDelaySeconds: 60,
  async handler({ fileId }, { services }) {
    const [found] = await services.db.select().from(file).where(eq(file.id, fileId));
    if (!found) return;
    const twins = await services.db
      .select({ variants: file.variants })
      .from(file)
      .where(and(eq(file.contentHash, found.contentHash), ne(file.id, fileId)));
    const stillNamed = new Set(twins.flatMap((twin) => twin.variants.map((variant) => variant.key)));
    await services.storage.delete(found.variants.map((variant) => variant.key).filter((key) => !stillNamed.has(key)));
    await services.db.delete(file).where(eq(file.id, fileId));
  },
});

async function authorized(
  deps: FileRouteDeps,
  slot: PictureSlot,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
) {
  if (!deps.originAllowed(request)) {
    sendError(reply, 'permission-denied', 'Uploads from this page are not allowed');
    return null;
  }
  const user = await deps.getUser(request);
  if (!user) {
    sendError(reply, 'unauthenticated', 'Sign in to change the picture');
    return null;
  }
  if (!idPattern.test(request.params.id)) {
    sendError(reply, 'not-found', 'Not found');
    return null;
  }
  try {
    return { user, ...(await slot.authorize(deps.db, user, request.params.id)) };
  } catch (error) {
    if (!(error instanceof CallableError)) throw error;
    sendError(reply, error.code, error.message, error.details);
    return null;
  }
}

/** `PUT <slot.path>` with the image's bytes as the body, `?focalX=&focalY=`; `DELETE <slot.path>` removes it. */
export function registerPictureRoutes(app: FastifyInstance, deps: FileRouteDeps, slot: PictureSlot) {
  app.register(async (scope) => {
    // The image arrives as it is, whatever type the browser declares: its bytes decide (images.ts).
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: deps.config.FILE_MAX_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    // The body limit answers before the handler runs: with the same reason as every other refusal,
    // so that the page can say why. Anything else goes on to the app's error handler.
    scope.setErrorHandler((error: Error & { code?: string }, _request, reply) => {
      if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
      return sendError(reply, 'invalid-argument', refusalMessages['too-large'], { reason: 'too-large' });
    });
    scope.put<{ Params: { id: string }; Querystring: Record<string, string> }>(slot.path, async (request, reply) => {
      const allowed = await authorized(deps, slot, request, reply);
      if (!allowed) return reply;
      const query = UploadQuery.safeParse(request.query);
      if (!query.success) return sendError(reply, 'invalid-argument', 'focalX and focalY are numbers from 0 to 1');
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) return sendError(reply, 'invalid-argument', 'Send the image as the body');
      let processed;
      try {
        processed = await processImage(body, { maxBytes: deps.config.FILE_MAX_BYTES, maxPixels: deps.config.IMAGE_MAX_PIXELS });
      } catch (error) {
        if (!(error instanceof ImageRefused)) throw error;
        return sendError(reply, 'invalid-argument', refusalMessages[error.reason], { reason: error.reason });
      }
      // Stored first, then recorded: a crash between leaves unreferenced objects, never a row without its files.
      for (const variant of processed.variants) await deps.storage.put(variant.key, variant.body, variant.contentType);
      const fileId = randomUUID();
      await deps.db.transaction(async (tx) => {
        await tx.insert(file).values({
          id: fileId,
          organizationId: allowed.organizationId,
          purpose: slot.purpose,
          contentHash: processed.contentHash,
          width: processed.width,
          height: processed.height,
          focalX: query.data.focalX,
          focalY: query.data.focalY,
          variants: processed.variants.map(({ body: _body, contentType: _type, ...variant }) => variant),
          createdBy: allowed.user.id,
        });
        const before = await slot.attach(tx, request.params.id, fileId, allowed.user);
        if (before) await deps.jobs.enqueue(tx, deleteFileJob, { fileId: before });
      });
      deps.publish(...(await slot.topics(deps.db, request.params.id, allowed.organizationId)));
      return reply.code(201).send({ fileId, width: processed.width, height: processed.height });
    });
    scope.delete<{ Params: { id: string } }>(slot.path, async (request, reply) => {
      const allowed = await authorized(deps, slot, request, reply);
      if (!allowed) return reply;
      await deps.db.transaction(async (tx) => {
        const before = await slot.attach(tx, request.params.id, null, allowed.user);
        if (before) await deps.jobs.enqueue(tx, deleteFileJob, { fileId: before });
      });
      deps.publish(...(await slot.topics(deps.db, request.params.id, allowed.organizationId)));
      return reply.code(204).send();
    });
  });
}

const contentTypes: Record<string, string> = { webp: 'image/webp', jpg: 'image/jpeg' };

/**
 * `GET /files/i/<key>`: a public image variant. Its name is its upload's own, so what it names never
 * changes and is cached for a year. Only `images/` keys are served; nothing else in storage is reachable.
 */
export function registerImageRoute(app: FastifyInstance, deps: Pick<FileRouteDeps, 'storage'>) {
  app.get<{ Params: { name: string } }>('/files/i/:name', async (request, reply) => {
    const key = `images/${request.params.name}`;
    const type = contentTypes[key.split('.').pop() ?? ''];
    if (!type || !isStorageKey(key)) return sendError(reply, 'not-found', 'No such image');
    const found = await deps.storage.get(key);
    if (!found) return sendError(reply, 'not-found', 'No such image');
    return reply
      .type(type)
      .header('content-length', found.bytes)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(found.body);
  });
}

/** What live queries send of a picture: its variants' URLs and sizes, and its focal point. */
export interface PictureRow {
  width: number;
  height: number;
  focalX: number;
  focalY: number;
  variants: { url: string; width: number; height: number; format: 'webp' | 'jpeg' }[];
}

export const imageUrl = (key: string) => `/files/i/${key.slice('images/'.length)}`;

/** The pictures of these file ids, by id, as live rows show them. */
export async function picturesOf(db: Db | Tx, fileIds: readonly (string | null)[]): Promise<Map<string, PictureRow>> {
  const ids = [...new Set(fileIds.filter((id): id is string => Boolean(id)))];
  if (ids.length === 0) return new Map();
  const rows = await db.select().from(file).where(inArray(file.id, ids));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        width: row.width,
        height: row.height,
        focalX: row.focalX,
        focalY: row.focalY,
        variants: row.variants.map((variant) => ({
          url: imageUrl(variant.key),
          width: variant.width,
          height: variant.height,
          format: variant.format,
        })),
      },
    ]),
  );
}

/** The JPEG variant of a file closest to `width` (for PDFs and emails, which may not show WebP), or null. */
export async function jpegVariantOf(db: Db | Tx, fileId: string | null, width: number) {
  if (!fileId) return null;
  const [found] = await db.select().from(file).where(eq(file.id, fileId));
  const jpegs = (found?.variants ?? []).filter((variant) => variant.format === 'jpeg');
  return jpegs.find((variant) => variant.width >= width) ?? jpegs.at(-1) ?? null;
}

/** A variant's bytes from storage, or null when it is gone (the picture was replaced meanwhile). */
export async function variantBytes(storage: FileStorage, key: string): Promise<Buffer | null> {
  const found = await storage.get(key);
  if (!found) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of found.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
