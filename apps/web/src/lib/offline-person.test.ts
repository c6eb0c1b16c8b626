import type { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// Forgetting a person while the offline cache (a chunk of its own, app/offline.ts) may not have
// started yet. Node has no localStorage: a Map stands in for the browser's.

const stored = new Map<string, string>();
vi.stubGlobal('localStorage', {
  getItem: (key: string) => stored.get(key) ?? null,
  setItem: (key: string, value: string) => void stored.set(key, value),
  removeItem: (key: string) => void stored.delete(key),
});

const queryClient = {} as QueryClient;
/** The module afresh, as a new page load has it. */
const load = async () => {
  vi.resetModules();
  return import('./offline-person');
};

beforeEach(() => stored.clear());

describe('forgetting the person this device kept', () => {
  it('waits for the offline cache when asked before it started, and is done as it starts', async () => {
    const person = await load();
    person.rememberSession({ user: { id: 'u1', name: 'Ann', email: 'ann@example.test' } });
    let forgotten = false;
    const asked = person.forgetOfflineData(queryClient).then(() => (forgotten = true));
    expect(person.rememberedSession()).toBeNull();
    await Promise.resolve();
    expect(forgotten).toBe(false);

    const clear = vi.fn(async () => undefined);
    await person.forgetWith(queryClient, clear);
    await asked;
    expect(clear).toHaveBeenCalledTimes(1);
    expect(forgotten).toBe(true);
  });

  it('forgets at once once the offline cache has started', async () => {
    const person = await load();
    const clear = vi.fn(async () => undefined);
    await person.forgetWith(queryClient, clear);
    expect(clear).not.toHaveBeenCalled();
    await person.forgetOfflineData(queryClient);
    expect(clear).toHaveBeenCalledTimes(1);
  });

  it('does not keep a sign-out waiting when the offline cache cannot start, and forgets at the next load’s start', async () => {
    const first = await load();
    const asked = first.forgetOfflineData(queryClient);
    first.forgetAtNextStart();
    await expect(asked).resolves.toBeUndefined();

    const next = await load();
    const clear = vi.fn(async () => undefined);
    await next.forgetWith(queryClient, clear);
    expect(clear).toHaveBeenCalledTimes(1);
    // Done once: the load after that has nothing left to forget.
    const after = await load();
    const clearAgain = vi.fn(async () => undefined);
    await after.forgetWith(queryClient, clearAgain);
    expect(clearAgain).not.toHaveBeenCalled();
  });
});
