import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame, Page } from 'playwright-core';

// The organizer's own website, for the journeys of the embedded checkout (decision 0061): served
// from another local origin, as a real one would be.

/** A site of the organizer's: every path answers this page, in its language, with the two lines. */
export function startSite(admitUrl: string, slug: string): Promise<Server> {
  const server = createServer((request, response) => {
    const lang = request.url?.startsWith('/fr') ? 'fr' : 'en';
    const element = request.url?.includes('button')
      ? `<admit-tickets event="${slug}" mode="button">Book now</admit-tickets>`
      : `<admit-tickets event="${slug}"></admit-tickets>`;
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(`<!doctype html><html lang="${lang}"><head><meta name="viewport" content="width=device-width">
      <title>Club Blau</title><script src="${admitUrl}/embed.js" async></script></head>
      <body style="font-family:sans-serif;max-width:720px;margin:auto;padding:1rem">
      <main><h1>Club Blau</h1><p>Live music every Friday.</p>${element}</main></body></html>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export const siteUrl = (server: Server, host: string) => `http://${host}:${(server.address() as AddressInfo).port}`;

/** The checkout's frame in the host page, once it has drawn its tickets. */
export async function checkoutFrame(page: Page): Promise<Frame> {
  await page.locator('admit-tickets iframe').waitFor();
  const frame = (await (await page.locator('admit-tickets iframe').elementHandle())!.contentFrame())!;
  await frame.getByRole('heading', { name: /Tickets|Billets/ }).waitFor();
  return frame;
}
