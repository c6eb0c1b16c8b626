import { describe, expect, it } from 'vitest';
import { personLabel, phoneOfPlaceholderEmail, shownContact } from './people';

describe('how a person is shown', () => {
  it('uses their name when they have one', () => {
    expect(personLabel({ name: ' Bea Buyer ', email: 'bea@example.test' })).toBe('Bea Buyer');
  });

  it('shows a phone account by its formatted number, never by its reserved address', () => {
    const email = 'phone-4915123456789@phone.admit.invalid';
    expect(phoneOfPlaceholderEmail(email)).toBe('+4915123456789');
    expect(personLabel({ name: '', email })).toBe('+49 1512 3456789');
    expect(shownContact(email)).not.toContain('invalid');
  });

  it('falls back to the email address for a person without a name', () => {
    expect(personLabel({ name: '', email: 'x@example.test' })).toBe('x@example.test');
    expect(shownContact('phone-12@example.test')).toBe('phone-12@example.test');
  });
});
