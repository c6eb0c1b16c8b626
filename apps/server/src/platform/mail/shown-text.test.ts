import { describe, expect, it } from 'vitest';
import { shorten } from './shown-text';

describe('shorten', () => {
  it('leaves text of up to the limit whole, as an entrance that allows that many characters accepted it', () => {
    expect(shorten('Bob Buyer', 9)).toBe('Bob Buyer');
    expect(shorten('x'.repeat(200), 200)).toBe('x'.repeat(200));
    expect(shorten('', 200)).toBe('');
  });

  it('cuts longer text to the limit, ellipsis included', () => {
    expect(shorten('Mallory Malicious', 8)).toBe('Mallory…');
    expect(shorten('x'.repeat(900_004), 200)).toBe(`${'x'.repeat(199)}…`);
  });

  it('never splits a surrogate pair, an emoji sequence or a letter from its accent', () => {
    // 😀 is two code units; a family of four is 11, joined by zero-width joiners; ñ here is n and U+0303.
    expect(shorten('😀'.repeat(10), 6)).toBe('😀😀…');
    expect(shorten('a😀😀', 4)).toBe('a😀…');
    expect(shorten('a😀😀', 3)).toBe('a…');
    const family = '👨‍👩‍👧‍👦';
    expect(shorten(`${family}${family}`, 12)).toBe(`${family}…`);
    expect(shorten(`${family}${family}`, 11)).toBe('…');
    expect(shorten('n\u0303'.repeat(5), 6)).toBe('n\u0303n\u0303…');
    expect(shorten('🇩🇪🇫🇷🇮🇹', 10)).toBe('🇩🇪🇫🇷…');
  });
});
