import { setAccountLanguage } from '@admit/shared/account';
import { useEffect } from 'react';
import { useSession } from '../../lib/session';
import { callFunction } from '../../lib/callable';
import { useLocale } from '../../lib/i18n';

/** Which person's choice of which language this browser last saved, so that a page load sends it once. */
const savedKey = 'admit.languageSaved';

/**
 * Keeps the signed-in person's account in the language they use the app in: the emails and text
 * messages Admit sends them later (an order's, a cancellation's) are written in it. Renders nothing.
 */
export function AccountLanguage() {
  const session = useSession();
  const { locale } = useLocale();
  const userId = session.data?.user.id;
  useEffect(() => {
    if (!userId || !navigator.onLine) return;
    const choice = `${userId}:${locale}`;
    if (localStorage.getItem(savedKey) === choice) return;
    void callFunction(setAccountLanguage, { locale })
      .then(() => localStorage.setItem(savedKey, choice))
      // Not saved (offline, signed out meanwhile): tried again on the next page load.
      .catch(() => {});
  }, [userId, locale]);
  return null;
}
