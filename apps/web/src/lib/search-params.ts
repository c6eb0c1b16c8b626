// A route's search parameters (`validateSearch`), read as the route takes them: a value that is not
// what the route takes is left out, so a link with a bad parameter opens the page without it. Written
// out rather than with zod: the routes are in the first load of every page, and zod alone weighs more
// than all of them (decision 0050).

/** A text parameter: trimmed when asked, within its lengths, and starting as asked; else left out. */
export function textParam(
  value: unknown,
  rule: { min?: number; max: number; trim?: boolean; startsWith?: string },
): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = rule.trim ? value.trim() : value;
  if (text.length < (rule.min ?? 0) || text.length > rule.max) return undefined;
  if (rule.startsWith !== undefined && !text.startsWith(rule.startsWith)) return undefined;
  return text;
}

/** A path of this site (`/tickets`); not another site's (`//host`, `/\\host`, which browsers read as `//host`). */
export function sitePathParam(value: unknown): string | undefined {
  const path = textParam(value, { startsWith: '/', max: 2000 });
  return path && !/^\/[/\\]/.test(path) ? path : undefined;
}

/** One of a few words; else left out. */
export function choiceParam<const T extends string>(value: unknown, choices: readonly T[]): T | undefined {
  return choices.find((choice) => choice === value);
}

/** A route's parameters, each one optional: a link may leave any out, and one left out is not in the address. */
export function searchOf<T extends Record<string, unknown>>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
