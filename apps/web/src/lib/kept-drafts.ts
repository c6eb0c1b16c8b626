import type { UseFormReturnType } from '@mantine/form';
import { useEffect, useRef } from 'react';

/**
 * What a person typed into a form, kept across the one reload a new build may cause
 * (lib/new-build.ts, decision 0058): each form on screen registers its draft here; just before the
 * reload they are all written to sessionStorage, by the address the form was at; the form at that
 * address takes its draft back once, when it is next on screen in this tab (within the hour).
 * Passwords, card details and codes for two-factor are never kept: forms holding them do not
 * register, and a field whose name says it is one is left out all the same.
 */
const storageKey = 'admit.kept-drafts';
const keptForMs = 60 * 60 * 1000;
const secretName = /password|secret|token|otp|totp|backup|cvc|cvv|card/i;

interface Kept {
  savedAt: number;
  values: unknown;
}

/** The drafts of the forms on screen now: their key (address and name) and how to read them. */
const onScreen = new Set<{ key: string; read: () => unknown }>();

/** A copy of `value` as JSON would store it, without the fields whose names say they are secret. */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value).flatMap(([name, field]) => (secretName.test(name) ? [] : [[name, withoutSecrets(field)]])),
  );
}

function readKept(): Record<string, Kept> {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(storageKey) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, Kept>) : {};
  } catch {
    return {};
  }
}

function writeKept(kept: Record<string, Kept>) {
  try {
    if (Object.keys(kept).length === 0) sessionStorage.removeItem(storageKey);
    else sessionStorage.setItem(storageKey, JSON.stringify(kept));
  } catch {
    // No session storage (or full): the drafts are lost with the reload, as without this.
  }
}

/** Writes the draft of every form on screen to sessionStorage: called just before the page reloads. */
export function keepDraftsOnScreen() {
  if (onScreen.size === 0) return;
  const kept = readKept();
  for (const draft of onScreen) kept[draft.key] = { savedAt: Date.now(), values: withoutSecrets(draft.read()) };
  writeKept(kept);
}

/** Counts a form's draft among those on screen (until the function it returns is called). */
export function draftOnScreen(key: string, read: () => unknown): () => void {
  const entry = { key, read };
  onScreen.add(entry);
  return () => void onScreen.delete(entry);
}

/** The draft kept for `key` before a reload, once: it is forgotten as it is taken (and when over an hour old). */
export function takeKept(key: string): unknown {
  const kept = readKept();
  const found = kept[key];
  const fresh = Object.fromEntries(
    Object.entries(kept).filter(([other, draft]) => other !== key && Date.now() - draft.savedAt < keptForMs),
  );
  if (found || Object.keys(fresh).length !== Object.keys(kept).length) writeKept(fresh);
  return found && Date.now() - found.savedAt < keptForMs ? found.values : undefined;
}

/**
 * Keeps a form's draft across a reload for a new build. `name` tells the form apart from others at
 * the same address; `read` gives what is typed now, `restore` puts a kept draft back (once, when
 * the form is first on screen after the reload). With `enabled` false (a closed dialog) nothing is kept.
 */
export function useKeptDraft<T>(name: string, read: () => T, restore: (draft: T) => void, enabled = true) {
  const latest = useRef({ read, restore });
  useEffect(() => {
    latest.current = { read, restore };
  });
  useEffect(() => {
    if (typeof window === 'undefined') return;
    const key = `${location.pathname} ${name}`;
    const draft = takeKept(key);
    if (draft !== undefined) latest.current.restore(draft as T);
    if (!enabled) return;
    return draftOnScreen(key, () => latest.current.read());
  }, [name, enabled]);
}

/**
 * useKeptDraft for a Mantine form: all its values, secret ones left out. `onRestored` runs when a
 * kept draft was put back (a dialog opens itself again to show it).
 */
export function useKeptForm<Values>(
  name: string,
  form: UseFormReturnType<Values>,
  { enabled = true, onRestored }: { enabled?: boolean; onRestored?: () => void } = {},
) {
  useKeptDraft(
    name,
    () => form.getValues(),
    (draft) => {
      form.setValues(draft as Partial<Values>);
      onRestored?.();
    },
    enabled,
  );
}
