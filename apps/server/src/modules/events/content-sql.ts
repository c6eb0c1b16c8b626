import type { Locale } from '@admit/shared/locales';
import { sql } from 'drizzle-orm';
import { event } from './schema';

/**
 * An event's translated titles and venues without their descriptions (`{ fr: { title, venue } }`),
 * for lists that show no description: a description may be 10,000 characters in each language.
 */
export const titlesAndVenues = sql<Partial<Record<Locale, { title: string; venue: string }>>>`coalesce(
  (select jsonb_object_agg(translation.key, translation.value - 'description') from jsonb_each(${event.translations}) as translation),
  '{}'::jsonb
)`;
