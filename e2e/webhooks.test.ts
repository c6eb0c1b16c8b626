import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

describe('an admin adds a webhook on the organization’s page and sends it a test ping', () => {
  const journey = useJourney();
  let organizer: Page;
  let receiver: Server;
  let receiverUrl = '';
  const received: { body: string; headers: Record<string, string> }[] = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers as Record<string, string> });
        response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
      });
    });
    receiver.listen(0, '127.0.0.1');
    await new Promise((resolve) => receiver.once('listening', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/admit`;
    organizer = await journey.newPage({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));

  it('adds one, keeps its secret, pings it and sees the delivery in its log', async () => {
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia.hooks@example.test' });
    const { organizationId } = await callAs(organizer)<{ organizationId: string }>('orgs.create', { name: 'Harbour Nights' });
    await organizer.goto(`/manage/orgs/${organizationId}/members`);
    const section = organizer.getByRole('region', { name: 'Webhooks' });
    await section.getByRole('textbox', { name: 'Address that receives the webhooks' }).fill(receiverUrl);
    await section.getByRole('checkbox', { name: 'ticket.checked_in' }).check();
    await section.getByRole('button', { name: 'Add webhook' }).click();
    const secret = (await section.locator('pre').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await screenshots(organizer, 'webhooks-secret');
    await section.getByRole('button', { name: 'I have saved it' }).click();

    const endpoint = section.getByRole('listitem').filter({ hasText: receiverUrl });
    await endpoint.getByText('On', { exact: true }).waitFor();
    await endpoint.getByRole('button', { name: 'Send a test ping' }).click();
    await endpoint.getByRole('button', { name: 'Deliveries' }).click();
    await endpoint.getByRole('row', { name: /webhook\.ping.*Delivered/ }).waitFor();
    await screenshots(organizer, 'webhooks-log');

    expect(received).toHaveLength(1);
    new Webhook(secret).verify(received[0]!.body, received[0]!.headers);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ type: 'webhook.ping' });
  });
});
