import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { z } from 'zod';

dayjs.extend(utc);
dayjs.extend(timezone);

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const TimeZone = z.string().max(64).refine(isTimeZone, { message: 'Not an IANA time zone' });

/** A wall-clock date and time without a zone, as a person types it: `2026-12-31T19:30`. */
export const LocalDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'Expected YYYY-MM-DDTHH:mm')
  .refine(isCalendarDateTime, { message: 'Not a date and time that exists' });

/** Whether `YYYY-MM-DDTHH:mm` names a real day and time (no 30 February, no 25:00). */
function isCalendarDateTime(value: string): boolean {
  const [year, month, day, hour, minute] = value.split(/[-T:]/).map(Number) as [number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute
  );
}

/** The instant at which the wall clock of `timeZone` shows `local`. */
export function zonedLocalToInstant(local: string, timeZone: string): Date {
  return dayjs.tz(local, timeZone).toDate();
}

/** The wall-clock time `YYYY-MM-DDTHH:mm` of an instant in a zone. */
export function instantToZonedLocal(instant: Date | string, timeZone: string): string {
  return dayjs(instant).tz(timeZone).format('YYYY-MM-DDTHH:mm');
}
