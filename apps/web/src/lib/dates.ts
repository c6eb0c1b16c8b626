/** The viewer's own IANA time zone. */
export const viewerTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Whether two zones show a different wall-clock time at this instant. */
export function zonesDiffer(instant: Date, zoneA: string, zoneB: string): boolean {
  const format = (timeZone: string) =>
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    }).format(instant);
  return format(zoneA) !== format(zoneB);
}

/** "Fri, 10 Jan 2030, 19:00 – 23:00 CET" in the locale, in the given zone. */
export function formatRange(locale: string, startsAt: string, endsAt: string, timeZone: string): string {
  const format = new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  return format.formatRange(new Date(startsAt), new Date(endsAt));
}
