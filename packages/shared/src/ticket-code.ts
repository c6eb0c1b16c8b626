/**
 * Ticket codes (what the QR code carries): 16 characters of randomness (96 bits, base64url) and
 * 12 of signature, the first 9 bytes of HMAC-SHA256(event's check-in key, the random part). The
 * server finds a ticket by its code; a scanner with no network checks the signature with the key
 * its event published to staff, so it can tell a genuine ticket bought after its last sync from a
 * made-up one. Codes from before signing (22 characters) have no signature and are found by lookup.
 */
export const ticketCodeRandomLength = 16;
export const ticketCodeSignatureLength = 12;
const signatureBytes = 9;

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

const encoder = new TextEncoder();
/** Imported once per event key: a door checks a signature on every scan of a code it does not know. */
const importedKeys = new Map<string, Promise<CryptoKey>>();
const hmacKey = (checkinKey: string) => {
  let key = importedKeys.get(checkinKey);
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(checkinKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    importedKeys.set(checkinKey, key);
  }
  return key;
};

/** The signature part for a random part, with Web Crypto (the browser and Node alike). */
export async function ticketCodeSignature(checkinKey: string, random: string): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(checkinKey), encoder.encode(random)));
  return base64url(mac.subarray(0, signatureBytes));
}

/** Codes from before signing: 16 random bytes in base64url. */
const unsignedTicketCodeLength = 22;

/**
 * Whether a text is shaped like a whole ticket code (base64url, the length of a signed or an older
 * code), as a scanner types it: the door scans it rather than searching names for it.
 */
export function hasTicketCodeShape(text: string): boolean {
  return (
    (text.length === ticketCodeRandomLength + ticketCodeSignatureLength || text.length === unsignedTicketCodeLength) &&
    /^[\w-]+$/.test(text)
  );
}

/** Whether a scanned code was made by this event's server (not whether it is still valid). */
export async function isSignedTicketCode(checkinKey: string, code: string): Promise<boolean> {
  if (code.length !== ticketCodeRandomLength + ticketCodeSignatureLength || !/^[\w-]+$/.test(code)) return false;
  const random = code.slice(0, ticketCodeRandomLength);
  return (await ticketCodeSignature(checkinKey, random)) === code.slice(ticketCodeRandomLength);
}
