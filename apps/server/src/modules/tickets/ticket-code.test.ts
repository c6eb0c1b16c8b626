import { randomBytes } from 'node:crypto';
import { isSignedTicketCode } from '@admit/shared/ticket-code';
import { describe, expect, it } from 'vitest';
import { newTicketCode } from './ticket-code';

const key = 'a'.repeat(64);

describe('signed ticket codes', () => {
  it('are 28 characters that the scanner’s Web Crypto check accepts with the event’s key', async () => {
    const code = newTicketCode(key);
    expect(code).toMatch(/^[\w-]{28}$/);
    await expect(isSignedTicketCode(key, code)).resolves.toBe(true);
  });

  it('do not pass with one character changed, with another event’s key, or when made up', async () => {
    const code = newTicketCode(key);
    const changed = code.slice(0, 3) + (code[3] === 'A' ? 'B' : 'A') + code.slice(4);
    await expect(isSignedTicketCode(key, changed)).resolves.toBe(false);
    await expect(isSignedTicketCode(key, newTicketCode('b'.repeat(64)))).resolves.toBe(false);
    await expect(isSignedTicketCode(key, randomBytes(21).toString('base64url'))).resolves.toBe(false);
    await expect(isSignedTicketCode(key, 'not a code at all, just text')).resolves.toBe(false);
  });

  it('are different every time', () => {
    const codes = new Set(Array.from({ length: 1000 }, () => newTicketCode(key)));
    expect(codes.size).toBe(1000);
  });
});
