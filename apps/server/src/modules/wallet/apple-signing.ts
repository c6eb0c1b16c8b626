import { createPrivateKey, generateKeyPair, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type Forge from 'node-forge';
import { ConfigError, type Config } from '../../platform/config';

// How Admit signs Apple Wallet passes (decision 0067): with the operator's pass type certificate, or
// outside production without one, with a chain this process makes for itself, so that `npm start`
// serves passes with no setup. Wallet accepts only passes signed under Apple's WWDR certificate:
// a development pass can be opened and checked, not added to a phone.

export interface AppleSigning {
  passTypeId: string;
  teamId: string;
  /** PEM texts, as passkit-generator takes them; the key unencrypted, in memory only. */
  certificates: { wwdr: string; signerCert: string; signerKey: string };
  /** Signed by this process's own chain: the pass says so on its back. */
  development: boolean;
}

/** A setting's file, read once as the server starts: one that cannot be read stops the start, naming the setting. */
function readSetting(name: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`Configuration error: ${name} names a file that cannot be read (${(error as Error).message})`);
  }
}

function certificateOf(name: string, pem: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch {
    throw new ConfigError(`Configuration error: ${name} is not a PEM certificate`);
  }
}

/** The operator's certificates, checked as the server starts: a key that does not open or does not match stops it. */
function operatorSigning(config: Config, settings: Record<'typeId' | 'teamId' | 'cert' | 'key' | 'wwdr', string>): AppleSigning {
  const signerCert = readSetting('APPLE_PASS_CERT', settings.cert);
  const wwdr = readSetting('APPLE_WWDR_CERT', settings.wwdr);
  const certificate = certificateOf('APPLE_PASS_CERT', signerCert);
  certificateOf('APPLE_WWDR_CERT', wwdr);
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: readSetting('APPLE_PASS_KEY', settings.key), passphrase: config.APPLE_PASS_KEY_PASSPHRASE });
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError('Configuration error: APPLE_PASS_KEY is not a PEM private key that APPLE_PASS_KEY_PASSPHRASE opens');
  }
  // passkit-generator signs with node-forge, which knows RSA keys only (Apple issues RSA keys).
  if (key.asymmetricKeyType !== 'rsa') throw new ConfigError('Configuration error: APPLE_PASS_KEY is not an RSA key');
  if (!certificate.checkPrivateKey(key))
    throw new ConfigError('Configuration error: APPLE_PASS_KEY is not the key of the certificate APPLE_PASS_CERT');
  return {
    passTypeId: settings.typeId,
    teamId: settings.teamId,
    certificates: { wwdr, signerCert, signerKey: key.export({ type: 'pkcs8', format: 'pem' }).toString() },
    development: false,
  };
}

const generatePair = promisify(generateKeyPair);

/** An RSA key pair (made by Node, a hundred times faster than node-forge) as node-forge's objects. */
async function forgeKeyPair(forge: typeof Forge) {
  const { publicKey, privateKey } = await generatePair('rsa', { modulusLength: 2048 });
  return {
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
    privateKey: forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** A certificate for `subject`'s key, signed by `issuer`'s, valid from a minute ago for ten years. */
function developmentCertificate(
  forge: typeof Forge,
  input: {
    subject: string;
    publicKey: Forge.pki.PublicKey;
    issuer: { name: string; privateKey: Forge.pki.rsa.PrivateKey };
    authority: boolean;
  },
) {
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = input.publicKey;
  // Positive (a leading 0 bit) and unique enough for a chain that lives as long as its process.
  certificate.serialNumber = `01${randomBytes(8).toString('hex')}`;
  certificate.validity.notBefore = new Date(Date.now() - 60_000);
  certificate.validity.notAfter = new Date(Date.now() + 10 * 365 * 24 * 60 * 60 * 1000);
  const names = (commonName: string) => [
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: 'Admit development' },
  ];
  certificate.setSubject(names(input.subject));
  certificate.setIssuer(names(input.issuer.name));
  certificate.setExtensions(
    input.authority
      ? [
          { name: 'basicConstraints', cA: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true },
        ]
      : [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true },
        ],
  );
  certificate.sign(input.issuer.privateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(certificate);
}

export const developmentPassTypeId = 'pass.org.admit.development';

/**
 * A development WWDR authority and a pass signer under it, made once per process when first needed
 * (and node-forge loaded then).
 */
async function makeDevelopmentSigning(): Promise<AppleSigning> {
  const { default: forge } = await import('node-forge');
  const [authority, signer] = await Promise.all([forgeKeyPair(forge), forgeKeyPair(forge)]);
  const authorityName = 'Admit development WWDR';
  return {
    passTypeId: developmentPassTypeId,
    teamId: 'ADMITDEV00',
    certificates: {
      wwdr: developmentCertificate(forge, {
        subject: authorityName,
        publicKey: authority.publicKey,
        issuer: { name: authorityName, privateKey: authority.privateKey },
        authority: true,
      }),
      signerCert: developmentCertificate(forge, {
        subject: `Pass Type ID: ${developmentPassTypeId}`,
        publicKey: signer.publicKey,
        issuer: { name: authorityName, privateKey: authority.privateKey },
        authority: false,
      }),
      signerKey: signer.privatePem,
    },
    development: true,
  };
}

let developmentSigning: Promise<AppleSigning> | undefined;

/**
 * How this server signs Apple Wallet passes: the operator's settings (read and checked now, as the
 * server starts), else outside production the development chain, else (production without settings)
 * not at all: null.
 */
export function appleSigningOf(config: Config): (() => Promise<AppleSigning>) | null {
  const { APPLE_PASS_TYPE_ID, APPLE_TEAM_ID, APPLE_PASS_CERT, APPLE_PASS_KEY, APPLE_WWDR_CERT } = config;
  // config.ts allows these all together or not at all.
  if (APPLE_PASS_TYPE_ID && APPLE_TEAM_ID && APPLE_PASS_CERT && APPLE_PASS_KEY && APPLE_WWDR_CERT) {
    const signing = operatorSigning(config, {
      typeId: APPLE_PASS_TYPE_ID,
      teamId: APPLE_TEAM_ID,
      cert: APPLE_PASS_CERT,
      key: APPLE_PASS_KEY,
      wwdr: APPLE_WWDR_CERT,
    });
    return async () => signing;
  }
  if (config.NODE_ENV === 'production') return null;
  return () => {
    // A failure is not kept: the next pass tries again.
    developmentSigning ??= makeDevelopmentSigning().catch((error: unknown) => {
      developmentSigning = undefined;
      throw error;
    });
    return developmentSigning;
  };
}
