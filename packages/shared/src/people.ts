import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

// How a person is shown wherever Admit names them: their name; without one, the phone number they
// signed up with, formatted; without that, their email address. An account made with a phone number
// carries a reserved `.invalid` address until it adds a real one, and that address is never shown.

const placeholderEmail = /^phone-(\d{6,16})@phone\.admit\.invalid$/i;

/** The reserved address of an account made with a phone number (see the server's phoneSignUpEmail). */
export const isPlaceholderEmail = (email: string) => placeholderEmail.test(email);

/** The phone number (E.164) behind a reserved address, or null for a real address. */
export function phoneOfPlaceholderEmail(email: string): string | null {
  const digits = placeholderEmail.exec(email)?.[1];
  return digits ? `+${digits}` : null;
}

/** An E.164 number as people write it internationally (`+49 151 23456789`); as given when it cannot be parsed. */
export function formatPhone(phone: string): string {
  return parsePhoneNumberFromString(phone)?.formatInternational() ?? phone;
}

/** What people see for an address: the address, or the formatted phone number behind a reserved one. */
export function shownContact(email: string): string {
  const phone = phoneOfPlaceholderEmail(email);
  return phone ? formatPhone(phone) : email;
}

/** The one label for a person: their name, else their phone number, else their address. */
export function personLabel(person: { name?: string | null; email: string }): string {
  return person.name?.trim() || shownContact(person.email);
}
