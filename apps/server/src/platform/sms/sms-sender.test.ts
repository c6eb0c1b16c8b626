import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import type { Db } from '../db/database';
import { createSmsSender } from './sms-sender';

describe('SMS through a Twilio-compatible gateway', () => {
  it('posts To, From and Body as a form with Basic auth to the configured URL', async () => {
    const requests: { url: string; init: RequestInit }[] = [];
    const sender = createSmsSender({
      db: undefined as unknown as Db,
      gateway: { url: 'https://sms.example.test/Messages.json', accountSid: 'AC123', authToken: 'secret', from: '+15005550006' },
      fetch: async (url, init) => {
        requests.push({ url: String(url), init: init! });
        return new Response('{}', { status: 201 });
      },
    });
    await sender.send({ to: '+4915123456789', text: '123456 is your Admit sign-in code.' });

    expect(requests).toHaveLength(1);
    const [{ url, init }] = requests as [(typeof requests)[0]];
    expect(url).toBe('https://sms.example.test/Messages.json');
    expect(new Headers(init.headers).get('authorization')).toBe(`Basic ${Buffer.from('AC123:secret').toString('base64')}`);
    expect(Object.fromEntries(init.body as URLSearchParams)).toEqual({
      To: '+4915123456789',
      From: '+15005550006',
      Body: '123456 is your Admit sign-in code.',
    });
  });

  it('fails the send when the gateway refuses it', async () => {
    const sender = createSmsSender({
      db: undefined as unknown as Db,
      gateway: { url: 'https://sms.example.test/Messages.json', accountSid: 'AC123', authToken: 'wrong', from: '+15005550006' },
      fetch: async () => new Response('{}', { status: 401, statusText: 'Unauthorized' }),
    });
    await expect(sender.send({ to: '+4915123456789', text: 'x' })).rejects.toThrow('SMS gateway answered 401');
  });

  it('refuses SMS_PROVIDER without its credentials and sender at start', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'https://sms.example.test/Messages.json' })).toThrow(
      'Configuration error: SMS_ACCOUNT_SID is required when SMS_PROVIDER is set',
    );
  });
});
