import { describe, expect, it } from 'vitest';
import { hasTicketCodeShape, isSignedTicketCode, ticketCodeSignature } from './ticket-code';

describe('ticket codes', () => {
  it('tells a whole code, signed or from before signing, from a name or an email someone types', () => {
    expect(hasTicketCodeShape('AbCdEfGhIjKlMnOp_-1234567890')).toBe(true);
    expect(hasTicketCodeShape('AbCdEfGhIjKlMnOp_-1234')).toBe(true);
    expect(hasTicketCodeShape('AbCdEfGhIjKlMnOp_-12345')).toBe(false);
    expect(hasTicketCodeShape('Maria Anna Santos Ferreira')).toBe(false);
    expect(hasTicketCodeShape('maria.santos@example.test')).toBe(false);
    expect(hasTicketCodeShape('Mar')).toBe(false);
  });

  it('accepts a code signed with the event key and refuses one with another signature', async () => {
    const random = 'AbCdEfGhIjKlMnOp';
    const code = random + (await ticketCodeSignature('event-key', random));
    expect(hasTicketCodeShape(code)).toBe(true);
    expect(await isSignedTicketCode('event-key', code)).toBe(true);
    expect(await isSignedTicketCode('another-key', code)).toBe(false);
    expect(await isSignedTicketCode('event-key', `${random}ZZZZZZZZZZZZ`)).toBe(false);
  });
});
