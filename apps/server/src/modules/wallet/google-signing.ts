import { createPrivateKey, createSign, generateKeyPair, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { z } from 'zod';
import { ConfigError, type Config } from '../../platform/config';

// How Admit signs Google Wallet save links (decision 0067): a JWT signed (RS256) with the key of the
// service account the operator's Google Wallet issuer allowed, or outside production without one,
// with a key this process makes for itself. Google saves only what the issuer's account signed.

export interface GoogleSigning {
  issuerId: string;
  /** The service account's address: the JWT's issuer. */
  clientEmail: string;
  privateKey: KeyObject;
  /** The key's id in the service account, named in the JWT's header. */
  keyId: string | undefined;
  /** Signed with this process's own key: the pass says so. */
  development: boolean;
}

/** What Admit reads of a service account's JSON key file, as Google's console downloads it. */
const ServiceAccountKey = z.object({
  client_email: z.string().min(1),
  private_key: z.string().min(1),
  private_key_id: z.string().optional(),
});

/** The operator's service account, read and checked as the server starts: a file that is not one stops it. */
function operatorSigning(issuerId: string, path: string): GoogleSigning {
  const setting = 'GOOGLE_WALLET_SERVICE_ACCOUNT';
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`Configuration error: ${setting} names a file that cannot be read (${(error as Error).message})`);
  }
  let account: z.infer<typeof ServiceAccountKey>;
  let privateKey: KeyObject;
  try {
    account = ServiceAccountKey.parse(JSON.parse(text));
    privateKey = createPrivateKey(account.private_key);
  } catch {
    throw new ConfigError(
      `Configuration error: ${setting} is not a service account's JSON key file (with client_email and a PEM private_key)`,
    );
  }
  if (privateKey.asymmetricKeyType !== 'rsa') throw new ConfigError(`Configuration error: ${setting} has no RSA key`);
  return { issuerId, clientEmail: account.client_email, privateKey, keyId: account.private_key_id, development: false };
}

async function makeDevelopmentSigning(): Promise<GoogleSigning> {
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  return {
    issuerId: 'development',
    clientEmail: 'development@admit.invalid',
    privateKey,
    keyId: undefined,
    development: true,
  };
}

let developmentSigning: Promise<GoogleSigning> | undefined;

/**
 * How this server signs Google Wallet save links: the operator's settings (read and checked now, as
 * the server starts), else outside production a development key, else (production without settings)
 * not at all: null.
 */
export function googleSigningOf(config: Config): (() => Promise<GoogleSigning>) | null {
  // config.ts allows these both or neither.
  if (config.GOOGLE_WALLET_ISSUER_ID && config.GOOGLE_WALLET_SERVICE_ACCOUNT) {
    const signing = operatorSigning(config.GOOGLE_WALLET_ISSUER_ID, config.GOOGLE_WALLET_SERVICE_ACCOUNT);
    return async () => signing;
  }
  if (config.NODE_ENV === 'production') return null;
  return () => {
    // A failure is not kept: the next link tries again.
    developmentSigning ??= makeDevelopmentSigning().catch((error: unknown) => {
      developmentSigning = undefined;
      throw error;
    });
    return developmentSigning;
  };
}

/** `claims` as a JWT signed with RS256 by `signing`'s key. */
export function signedJwt(signing: GoogleSigning, claims: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const header = { alg: 'RS256', typ: 'JWT', ...(signing.keyId ? { kid: signing.keyId } : {}) };
  const unsigned = `${part(header)}.${part(claims)}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(signing.privateKey);
  return `${unsigned}.${signature.toString('base64url')}`;
}
