import { setAccountLanguage } from '@admit/shared/account';
import { isLocale, type Locale } from '@admit/shared/locales';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { defineCallable } from '../http/callable';
import { personLanguage } from './language-schema';

/** Saves the language the signed-in person chose in the app (the web app calls it on every choice). */
export const setAccountLanguageCallable = defineCallable(setAccountLanguage, {
  auth: 'required',
  async handler(input, ctx) {
    await ctx.db
      .insert(personLanguage)
      .values({ userId: ctx.user.id, locale: input.locale })
      .onConflictDoUpdate({ target: personLanguage.userId, set: { locale: input.locale, updatedAt: sql`now()` } });
    return { locale: input.locale };
  },
});

/** The language a person last chose in the app, or null when they never chose one while signed in. */
export async function accountLanguageOf(db: Db, userId: string | null): Promise<Locale | null> {
  if (!userId) return null;
  const [found] = await db
    .select({ locale: personLanguage.locale })
    .from(personLanguage)
    .where(eq(personLanguage.userId, userId));
  return found && isLocale(found.locale) ? found.locale : null;
}
