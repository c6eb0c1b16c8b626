import { describe, expect, it } from 'vitest';
import { choiceParam, searchOf, sitePathParam, textParam } from './search-params';

describe('a route’s search parameters', () => {
  it('keeps a text within its lengths, trimmed when asked, and leaves out any other value', () => {
    expect(textParam('PRESS', { min: 1, max: 40 })).toBe('PRESS');
    expect(textParam('  PRESS ', { trim: true, min: 1, max: 40 })).toBe('PRESS');
    expect(textParam('   ', { trim: true, min: 1, max: 40 })).toBeUndefined();
    expect(textParam('x'.repeat(41), { max: 40 })).toBeUndefined();
    // The router reads `?code=123` as a number: a code is text.
    expect(textParam(123, { max: 40 })).toBeUndefined();
    expect(textParam(['a'], { max: 40 })).toBeUndefined();
  });

  it('keeps only one of the words a route takes', () => {
    expect(choiceParam('phone', ['password', 'phone'])).toBe('phone');
    expect(choiceParam('sms', ['password', 'phone'])).toBeUndefined();
    expect(choiceParam(1, ['1'])).toBeUndefined();
  });

  it('goes on after sign-in to a path of this site only, never to another site', () => {
    expect(sitePathParam('/tickets?x=1')).toBe('/tickets?x=1');
    expect(sitePathParam('https://evil.example')).toBeUndefined();
    expect(sitePathParam('//evil.example/path')).toBeUndefined();
    expect(sitePathParam('/\\evil.example')).toBeUndefined();
    expect(sitePathParam('/' + 'a'.repeat(2000))).toBeUndefined();
  });

  it('leaves a parameter that was left out out of the address', () => {
    expect(searchOf({ lang: 'fr', code: undefined })).toEqual({ lang: 'fr' });
  });
});
