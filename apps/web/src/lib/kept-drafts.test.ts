import { afterEach, describe, expect, it, vi } from 'vitest';
import { draftOnScreen, keepDraftsOnScreen, takeKept } from './kept-drafts';

// What a form keeps across the reload for a new build (the browser journey e2e/new-build.test.ts
// shows a form getting it back). Node has no sessionStorage: a Map stands in for the browser's.

const stored = new Map<string, string>();
vi.stubGlobal('sessionStorage', {
  getItem: (key: string) => stored.get(key) ?? null,
  setItem: (key: string, value: string) => void stored.set(key, value),
  removeItem: (key: string) => void stored.delete(key),
});

describe('drafts kept across a reload', () => {
  afterEach(() => {
    stored.clear();
    vi.useRealTimers();
  });

  it('keeps what the forms on screen hold, without passwords, card details or codes, and gives it back once', () => {
    const gone = draftOnScreen('/account sign-in', () => ({
      email: 'ada@example.test',
      password: 'correct horse',
      newPassword: 'battery staple',
      card: { number: '4242 4242 4242 4242', cvc: '123' },
      totpCode: '123456',
      tickets: [{ name: 'Ada', backupCode: 'abcd-efgh' }],
    }));
    keepDraftsOnScreen();
    gone();
    expect(JSON.stringify([...stored.values()])).not.toMatch(/horse|staple|4242|123456|abcd/);
    expect(takeKept('/account sign-in')).toEqual({ email: 'ada@example.test', tickets: [{ name: 'Ada' }] });
    expect(takeKept('/account sign-in')).toBeUndefined();
  });

  it('keeps only the forms still on screen, each by its own key, and forgets drafts over an hour old', () => {
    vi.useFakeTimers();
    const left = draftOnScreen('/events/1 checkout', () => ({ quantities: { a: 2 } }));
    left();
    const message = draftOnScreen('/manage/events/1/messages new-message', () => ({ subject: 'Doors at 7' }));
    keepDraftsOnScreen();
    message();
    expect(takeKept('/events/1 checkout')).toBeUndefined();
    vi.advanceTimersByTime(61 * 60 * 1000);
    expect(takeKept('/manage/events/1/messages new-message')).toBeUndefined();
    expect(stored.size).toBe(0);
  });
});
