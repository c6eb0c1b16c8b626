import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database';
import { contentDisposition } from '../http/content-disposition';
import { sendError } from '../http/send-error';
import { fromThisMachine } from '../http/this-machine';
import { outboxMessage, type StoredAttachment } from './schema';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

const linkify = (escaped: string) => escaped.replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);

const attachmentUrl = (messageId: string, index: number) => `/dev/outbox/${encodeURIComponent(messageId)}/attachments/${index}`;

/** What the listing shows of an attachment: its name and where to get it, not its bytes. */
const describeAttachments = (messageId: string, attachments: StoredAttachment[]) =>
  attachments.map((attachment, index) => ({
    filename: attachment.filename,
    contentType: attachment.contentType,
    cid: attachment.cid,
    size: Buffer.byteLength(attachment.contentBase64, 'base64'),
    url: attachmentUrl(messageId, index),
  }));

/** Points `cid:` references at the outbox's own copies, so inline images show as a mail app shows them. */
function showInlineImages(html: string, messageId: string, attachments: StoredAttachment[]) {
  return html.replace(/(["'(])cid:([^"')\s]+)/g, (match, opening: string, cid: string) => {
    const index = attachments.findIndex((attachment) => attachment.cid === cid);
    return index === -1 ? match : `${opening}${attachmentUrl(messageId, index)}`;
  });
}

const attachmentList = (messageId: string, attachments: StoredAttachment[]) =>
  attachments.length === 0
    ? ''
    : `\n  <p>Attachments:</p>\n  <ul>${describeAttachments(messageId, attachments)
        .map(
          (attachment) =>
            `<li><a href="${attachment.url}" download="${escapeHtml(attachment.filename)}">${escapeHtml(attachment.filename)}</a> (${escapeHtml(attachment.contentType)}, ${attachment.size.toLocaleString('en')} bytes${attachment.cid ? ', shown in the email' : ''})</li>`,
        )
        .join('')}</ul>`;

/**
 * `/dev/outbox` (a page) and `/dev/outbox.json`: what the embedded default "sent". Never registered
 * in production, and answered only to this machine: every sign-in link is in it, so anyone else who
 * could read it (on the same café network, say) could sign in as anyone. Others get `not-found`,
 * as if it did not exist.
 */
export async function registerDevOutbox(app: FastifyInstance, db: Db) {
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (!fromThisMachine(request)) return sendError(reply, 'not-found', 'Not found');
    });
    devOutboxRoutes(scope, db);
  });
}

function devOutboxRoutes(app: FastifyInstance, db: Db) {
  const latest = () => db.select().from(outboxMessage).orderBy(desc(outboxMessage.createdAt)).limit(200);

  app.get('/dev/outbox.json', async () => ({
    messages: (await latest()).map((message) => ({
      ...message,
      attachments: describeAttachments(message.id, message.attachments),
    })),
  }));

  // An email's HTML part as a mail app would show it.
  app.get<{ Params: { id: string } }>('/dev/outbox/:id', async (request, reply) => {
    const [message] = await db.select().from(outboxMessage).where(eq(outboxMessage.id, request.params.id));
    if (!message?.html) return reply.code(404).type('text/plain').send('No such email, or it has no HTML part');
    return reply.type('text/html; charset=utf-8').send(showInlineImages(message.html, message.id, message.attachments));
  });

  app.get<{ Params: { id: string; index: string } }>('/dev/outbox/:id/attachments/:index', async (request, reply) => {
    const [message] = await db
      .select({ attachments: outboxMessage.attachments })
      .from(outboxMessage)
      .where(eq(outboxMessage.id, request.params.id));
    const attachment = /^\d+$/.test(request.params.index) ? message?.attachments[Number(request.params.index)] : undefined;
    if (!attachment) return reply.code(404).type('text/plain').send('No such attachment');
    return reply
      .type(attachment.contentType)
      .header('content-disposition', contentDisposition(attachment.cid ? 'inline' : 'attachment', attachment.filename))
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(attachment.contentBase64, 'base64'));
  });

  app.get('/dev/outbox', async (_request, reply) => {
    const messages = await latest();
    const items = messages
      .map(
        (message) => `<article>
  <header><strong>${escapeHtml(message.subject || message.channel.toUpperCase())}</strong>
  <span>to ${escapeHtml(message.to)} · <time datetime="${message.createdAt.toISOString()}">${message.createdAt.toISOString()}</time></span></header>
  <pre>${linkify(escapeHtml(message.text))}</pre>${message.html ? `\n  <p><a href="/dev/outbox/${encodeURIComponent(message.id)}">View the HTML email</a></p>` : ''}${attachmentList(message.id, message.attachments)}
</article>`,
      )
      .join('\n');
    reply.type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev outbox · Admit</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1a1b1e}
article{border:1px solid #dee2e6;border-radius:8px;padding:1rem;margin:1rem 0}header{display:flex;flex-wrap:wrap;gap:.5rem;justify-content:space-between}
header span{color:#495057;font-size:.875rem}pre{white-space:pre-wrap;word-break:break-word;font:inherit}</style></head>
<body><h1>Dev outbox</h1><p>Emails and text messages the embedded default would have sent, newest first. This page does not exist in production.</p>
${items || '<p>Nothing has been sent yet.</p>'}</body></html>`);
  });
}
