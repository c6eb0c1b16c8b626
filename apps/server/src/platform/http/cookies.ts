/** The value of the cookie `name` in a Cookie header, as sent (not decoded); undefined when absent. */
export function cookieValue(cookieHeader: string | undefined, name: string): string | undefined {
  return cookieHeader
    ?.split(';')
    .map((part) => part.trim().split('='))
    .find(([key]) => key === name)?.[1];
}
