import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOrder } from '@admit/shared/orders';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../platform/config';
import { storageFromConfig } from '../../platform/files/storage';
import { createPublishedEvent, paidTickets } from '../../testing/fixtures';
import { createTestApp, testAuthSecret, type TestApp } from '../../testing/test-app';
import { orderAccessToken } from '../orders/orders.api';
import { ticket } from '../tickets/schema';
import { appleSigningOf } from './apple-signing';
import { registerWalletRoutes } from './wallet.api';

// The Apple Wallet pass through the real app, signed by a certificate chain the test makes with the
// openssl CLI (a root standing in for Apple's WWDR, and a pass type certificate under it), checked as
// Wallet checks it: every file's SHA-1 in manifest.json, and `signature` a detached PKCS #7
// signature of manifest.json by a certificate of that chain.

type Person = Awaited<ReturnType<TestApp['signUp']>>;
const folder = mkdtempSync(path.join(tmpdir(), 'admit-apple-pass-'));
const inFolder = (name: string) => path.join(folder, name);
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: folder, stdio: 'pipe' });

/** A root authority and a pass type certificate under it, its key encrypted with a passphrase. */
function makeCertificateChain() {
  openssl(
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'root.key', '-out', 'root.pem', '-days', '2'],
    ...['-subj', '/CN=Test WWDR Authority', '-addext', 'basicConstraints=critical,CA:TRUE'],
    ...['-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
  );
  openssl(
    ...['req', '-newkey', 'rsa:2048', '-keyout', 'signer.key', '-passout', 'pass:open sesame', '-out', 'signer.csr'],
    ...['-subj', '/CN=Pass Type ID: pass.org.example.tickets/OU=A1B2C3D4E5'],
  );
  writeFileSync(inFolder('signer.ext'), 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n');
  openssl(
    ...['x509', '-req', '-in', 'signer.csr', '-CA', 'root.pem', '-CAkey', 'root.key', '-set_serial', '2'],
    ...['-days', '2', '-extfile', 'signer.ext', '-out', 'signer.pem'],
  );
}

/** Whether openssl finds `signature` to be a valid detached signature of `manifest`, by a certificate under `root.pem`. */
function signatureVerifies(files: Record<string, Uint8Array>, options: { chain: boolean } = { chain: true }) {
  writeFileSync(inFolder('manifest.json'), files['manifest.json']!);
  writeFileSync(inFolder('signature'), files.signature!);
  const trust = options.chain ? ['-CAfile', 'root.pem'] : ['-noverify'];
  try {
    openssl(
      'smime',
      '-verify',
      '-inform',
      'DER',
      '-binary',
      '-in',
      'signature',
      '-content',
      'manifest.json',
      ...trust,
      '-out',
      'verified',
    );
    return true;
  } catch {
    return false;
  }
}

/** The files whose SHA-1 is not the one manifest.json gives, and those it lists that are missing or it leaves out. */
function manifestMismatches(files: Record<string, Uint8Array>): string[] {
  const manifest = JSON.parse(Buffer.from(files['manifest.json']!).toString()) as Record<string, string>;
  const signed = Object.keys(files).filter((name) => name !== 'manifest.json' && name !== 'signature');
  const names = [...new Set([...signed, ...Object.keys(manifest)])].sort();
  return names.filter((name) => !files[name] || manifest[name] !== createHash('sha1').update(files[name]).digest('hex'));
}

const passJson = (files: Record<string, Uint8Array>) => JSON.parse(Buffer.from(files['pass.json']!).toString());

let t: TestApp;
let buyer: Person;
let stranger: Person;
let bought: { orderId: string; slug: string; organizationId: string; tickets: { id: string; code: string }[] };

const getPass = (ticketId: string, headers: Record<string, string> = {}, query = '') =>
  t.app.inject({ method: 'GET', url: `/files/tickets/${encodeURIComponent(ticketId)}/pass.pkpass${query}`, headers });
const passFiles = (response: { rawPayload: Buffer }) => unzipSync(new Uint8Array(response.rawPayload));

beforeAll(async () => {
  makeCertificateChain();
  t = await createTestApp({
    env: {
      APPLE_PASS_TYPE_ID: 'pass.org.example.tickets',
      APPLE_TEAM_ID: 'A1B2C3D4E5',
      APPLE_PASS_CERT: inFolder('signer.pem'),
      APPLE_PASS_KEY: inFolder('signer.key'),
      APPLE_PASS_KEY_PASSPHRASE: 'open sesame',
      APPLE_WWDR_CERT: inFolder('root.pem'),
    },
  });
  const owner = await t.signUp('Olga Organizer');
  [buyer, stranger] = await Promise.all([t.signUp('Bob Buyer'), t.signUp('Sue Stranger')]);
  const { orderId, slug, organizationId, tickets } = await paidTickets(t, owner.cookie, buyer.cookie);
  bought = { orderId, slug, organizationId, tickets };
});
afterAll(async () => {
  await t?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('GET /files/tickets/:ticketId/pass.pkpass', () => {
  it('gives the buyer a pass signed by the configured certificate, every file listed in its manifest by its SHA-1', async () => {
    const response = await getPass(bought.tickets[0]!.id, { cookie: buyer.cookie });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.apple.pkpass');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${bought.slug}-ticket.pkpass"`);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const files = passFiles(response);
    expect(Object.keys(files)).toEqual(expect.arrayContaining(['pass.json', 'icon.png', 'manifest.json', 'signature']));
    expect(manifestMismatches(files)).toEqual([]);
    expect(signatureVerifies(files)).toBe(true);
  });

  it('fails the checks when the manifest or a file is changed after signing', async () => {
    const files = passFiles(await getPass(bought.tickets[0]!.id, { cookie: buyer.cookie }));
    const manifest = JSON.parse(Buffer.from(files['manifest.json']!).toString()) as Record<string, string>;
    const forged = { ...manifest, 'pass.json': '0'.repeat(40) };
    expect(signatureVerifies({ ...files, 'manifest.json': Buffer.from(JSON.stringify(forged)) })).toBe(false);
    const changed = Buffer.from(JSON.stringify({ ...passJson(files), serialNumber: 'someone-else' }));
    expect(manifestMismatches({ ...files, 'pass.json': changed })).toEqual(['pass.json']);
  });

  it("is an event ticket whose QR code is the ticket's signed code, in the buyer's language, with its event, time and place", async () => {
    const [first] = bought.tickets;
    const pass = passJson(passFiles(await getPass(first!.id, { cookie: `${buyer.cookie}; admit.locale=de` })));
    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: 'pass.org.example.tickets',
      teamIdentifier: 'A1B2C3D4E5',
      serialNumber: first!.id,
      organizationName: 'Night Owls',
      description: 'Ticket für Jazz night',
      barcodes: [{ format: 'PKBarcodeFormatQR', message: first!.code, messageEncoding: 'iso-8859-1' }],
      relevantDate: '2030-01-10T18:00:00.000Z',
      webServiceURL: 'http://localhost:3000/wallet/apple',
    });
    expect(pass.voided).toBeUndefined();
    expect(pass.authenticationToken.length).toBeGreaterThanOrEqual(16);
    expect(pass.locations).toBeUndefined();
    const fields = (group: string) =>
      (pass.eventTicket[group] as { key: string; label?: string; value: string }[]).map(({ label, value }) => [label, value]);
    expect(fields('primaryFields')).toEqual([['Veranstaltung', 'Jazz night']]);
    expect(fields('secondaryFields')).toEqual([
      ['Wann', expect.stringMatching(/^Do\., 10\. Jan\. 2030, 19:00 MEZ$/)],
      ['Wo', 'Club Blau'],
    ]);
    expect(fields('auxiliaryFields')).toEqual([
      ['Name', 'Bob Buyer'],
      ['Ticket', 'Standing'],
    ]);
    expect(fields('backFields')).toContainEqual(['Bestellung', bought.orderId.replaceAll('-', '').slice(0, 8).toUpperCase()]);
  });

  it('marks the pass of a void ticket void, with the same code and serial number', async () => {
    const [, second] = bought.tickets;
    await t.db.update(ticket).set({ status: 'void' }).where(eq(ticket.id, second!.id));
    const pass = passJson(passFiles(await getPass(second!.id, { cookie: buyer.cookie })));
    expect(pass).toMatchObject({ voided: true, serialNumber: second!.id, barcodes: [{ message: second!.code }] });
  });

  it("draws the pass's logo and icon from the organization's logo, as PNG", async () => {
    const logo = await sharp({ create: { width: 500, height: 500, channels: 3, background: '#ff8800' } })
      .jpeg()
      .toBuffer();
    const owner = await t.signUp('Lou Logo');
    const { eventId, ticketTypeIds, organizationId } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ capacity: 5, price: 0 }],
    });
    const uploaded = await t.app.inject({
      method: 'PUT',
      url: `/files/orgs/${organizationId}/logo`,
      headers: { 'content-type': 'image/jpeg', origin: 'http://localhost:3000', cookie: owner.cookie },
      payload: logo,
    });
    expect(uploaded.statusCode).toBe(201);
    const { body } = await t.call(
      createOrder,
      { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 }] },
      buyer.cookie,
    );
    const [free] = await t.db.select({ id: ticket.id }).from(ticket).where(eq(ticket.orderId, body.result.orderId));
    const files = passFiles(await getPass(free!.id, { cookie: buyer.cookie }));
    expect(await sharp(files['logo@2x.png']!).metadata()).toMatchObject({ format: 'png', width: 100, height: 100 });
    expect(await sharp(files['icon@3x.png']!).metadata()).toMatchObject({ format: 'png', width: 87, height: 87 });
    // Orange, as the logo is (within what JPEG changes).
    const [red, green, blue] = (await sharp(files['icon.png']!).stats()).channels.map((channel) => Math.round(channel.mean));
    expect([Math.abs(red! - 255), Math.abs(green! - 136), blue]).toSatisfy((off: number[]) => off.every((one) => one < 12));
    expect(manifestMismatches(files)).toEqual([]);
  });

  it("opens with the token of a guest's order, and not with a wrong one", async () => {
    const token = orderAccessToken({ AUTH_SECRET: testAuthSecret }, bought.orderId);
    expect((await getPass(bought.tickets[0]!.id, {}, `?token=${token}`)).statusCode).toBe(200);
    expect((await getPass(bought.tickets[0]!.id, {}, `?token=${token.slice(1)}x`)).statusCode).toBe(404);
  });

  it('answers 404 to a stranger and for an id no ticket can have, 401 to someone not signed in', async () => {
    const refused = await getPass(bought.tickets[0]!.id, { cookie: stranger.cookie });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ error: { status: 'NOT_FOUND', message: 'No such tickets' } });
    for (const id of ['x'.repeat(65), 'nul\u0000', '00000000-0000-0000-0000-000000000000'])
      expect((await getPass(id, { cookie: buyer.cookie })).statusCode).toBe(404);
    expect((await getPass(bought.tickets[0]!.id)).statusCode).toBe(401);
  });
});

describe('Apple Wallet passes without the operator’s certificates', () => {
  it('are signed by a development chain outside production, and say on their back that Wallet will refuse them', async () => {
    const bare = await createTestApp();
    try {
      const owner = await bare.signUp('Dee Developer');
      const {
        tickets: [free],
      } = await paidTickets(bare, owner.cookie, owner.cookie);
      const response = await bare.app.inject({
        method: 'GET',
        url: `/files/tickets/${free!.id}/pass.pkpass`,
        headers: { cookie: owner.cookie },
      });
      const files = passFiles(response);
      expect(manifestMismatches(files)).toEqual([]);
      expect(signatureVerifies(files, { chain: false })).toBe(true);
      expect(signatureVerifies(files)).toBe(false);
      const certificates = openssl('pkcs7', '-inform', 'DER', '-in', 'signature', '-print_certs', '-noout').toString();
      expect(certificates).toContain('CN = Admit development WWDR');
      const pass = passJson(files);
      expect(pass.passTypeIdentifier).toBe('pass.org.admit.development');
      expect(pass.eventTicket.backFields).toContainEqual({
        key: 'development',
        value: 'Development pass: not signed by Apple; Wallet will not accept it.',
      });
    } finally {
      await bare.close();
    }
  });
});

describe('the operator’s Apple Wallet settings', () => {
  const settings = {
    APPLE_PASS_TYPE_ID: 'pass.org.example.tickets',
    APPLE_TEAM_ID: 'A1B2C3D4E5',
    APPLE_PASS_CERT: inFolder('signer.pem'),
    APPLE_PASS_KEY: inFolder('signer.key'),
    APPLE_PASS_KEY_PASSPHRASE: 'open sesame',
    APPLE_WWDR_CERT: inFolder('root.pem'),
  };
  const startError = (changes: Record<string, string>) => {
    try {
      appleSigningOf(loadConfig({ ...settings, ...changes }));
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('the settings were taken');
  };

  it('stop the start, naming the setting, when a file is missing, the passphrase wrong or the key not the certificate’s', () => {
    expect(appleSigningOf(loadConfig(settings))).toBeTypeOf('function');
    expect(startError({ APPLE_WWDR_CERT: inFolder('nothing.pem') })).toMatch(
      /^Configuration error: APPLE_WWDR_CERT names a file that cannot be read/,
    );
    expect(startError({ APPLE_PASS_KEY_PASSPHRASE: 'wrong' })).toBe(
      'Configuration error: APPLE_PASS_KEY is not a PEM private key that APPLE_PASS_KEY_PASSPHRASE opens',
    );
    expect(startError({ APPLE_PASS_KEY: inFolder('root.key') })).toBe(
      'Configuration error: APPLE_PASS_KEY is not the key of the certificate APPLE_PASS_CERT',
    );
    expect(startError({ APPLE_PASS_CERT: inFolder('signer.key') })).toBe(
      'Configuration error: APPLE_PASS_CERT is not a PEM certificate',
    );
  });
});

describe('wallet passes in production without the operator’s settings', () => {
  it('are not offered: both wallet routes answer 404, saying so, before they look at the ticket, and /api/wallets says none', async () => {
    const production = Fastify();
    registerWalletRoutes(production, {
      db: t.db,
      storage: await storageFromConfig(t.config),
      getUser: async () => null,
      tokenOpens: () => false,
      publicUrl: 'https://tickets.example.org',
      config: { ...t.config, NODE_ENV: 'production', APPLE_PASS_TYPE_ID: undefined, APPLE_TEAM_ID: undefined },
    });
    const ticketId = bought.tickets[0]!.id;
    const apple = await production.inject({ method: 'GET', url: `/files/tickets/${ticketId}/pass.pkpass` });
    expect(apple.statusCode).toBe(404);
    expect(apple.json().error.message).toBe('Apple Wallet passes are not set up on this server');
    const google = await production.inject({ method: 'GET', url: `/files/tickets/${ticketId}/google-wallet` });
    expect(google.statusCode).toBe(404);
    expect(google.json().error.message).toBe('Google Wallet passes are not set up on this server');
    // And the buttons are told so.
    expect((await production.inject({ method: 'GET', url: '/api/wallets' })).json()).toEqual({ apple: false, google: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/wallets' })).json()).toEqual({ apple: true, google: true });
    await production.close();
  });
});
