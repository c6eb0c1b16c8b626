import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, publicUrlOf } from './config';

/** The secrets production refuses to start without, all valid. */
const production = {
  NODE_ENV: 'production',
  AUTH_SECRET: 'a-production-secret-of-at-least-32-chars',
  PUBLIC_URL: 'https://tickets.example.org',
  STRIPE_SECRET_KEY: 'sk_test_x',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
  SMTP_URL: 'smtps://mailer:secret@smtp.example.org:465',
};

/** The ConfigError that loading `env` throws (fails the test when it does not throw one). */
function configErrorOf(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('refuses webhooks to private addresses in production unless told otherwise', () => {
    const production = {
      NODE_ENV: 'production',
      AUTH_SECRET: 'a'.repeat(32),
      PUBLIC_URL: 'https://tickets.example.com',
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      SMTP_URL: 'smtp://mail.example.com',
    };
    expect(loadConfig(production).WEBHOOKS_ALLOW_PRIVATE).toBe(false);
    expect(loadConfig({ ...production, WEBHOOKS_ALLOW_PRIVATE: 'true' }).WEBHOOKS_ALLOW_PRIVATE).toBe(true);
  });

  it('runs the embedded default with no configuration at all', () => {
    expect(loadConfig({})).toEqual({
      NODE_ENV: 'development',
      PORT: 3000,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      STORAGE_DRIVER: 'local',
      S3_FORCE_PATH_STYLE: false,
      FILE_MAX_BYTES: 10 * 1024 * 1024,
      IMAGE_MAX_PIXELS: 40_000_000,
      ANALYTICS_RETENTION_DAYS: 30,
      ANALYTICS_AGGREGATE_SECONDS: 60,
      TRUST_PROXY: false,
      LOG_LEVEL: 'info',
      IMPORT_MAX_BYTES: 10 * 1024 * 1024,
      IMPORT_MAX_ROWS: 50_000,
      ORDER_MAX_HELD_PLACES: 20,
      ORDER_ATTEMPTS_WINDOW_SECONDS: 600,
      ORDER_ATTEMPTS_PER_ACCOUNT: 30,
      ORDER_ATTEMPTS_PER_ADDRESS: 300,
      INVITATIONS_WINDOW_SECONDS: 86_400,
      INVITATIONS_PER_ACCOUNT: 50,
      INVITATIONS_PER_RECIPIENT: 5,
      GUEST_MAIL_PER_ACCOUNT_HOUR: 1000,
      GUEST_MAIL_PER_ACCOUNT_DAY: 5000,
      GUEST_MAIL_PER_ORG_HOUR: 2000,
      GUEST_MAIL_PER_ORG_DAY: 10_000,
      GUEST_MAIL_NEW_PER_HOUR: 100,
      GUEST_MAIL_NEW_PER_DAY: 300,
      WEBHOOKS_ALLOW_PRIVATE: true,
      WEBHOOKS_RETRY_FIRST_SECONDS: 30,
      WEBHOOKS_GIVE_UP_AFTER_SECONDS: 259_200,
      JOB_WORKERS: 'in-process',
      DATABASE_POOL_SIZE: 20,
      LIVE_MAX_BUFFERED_BYTES: 4 * 1024 * 1024,
      LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET: 100,
      LIVE_MAX_SOCKETS_PER_ADDRESS: 50,
      API_RATE_LIMIT_PER_MINUTE: 600,
      LIVE_MAX_SOCKETS_PER_ACCOUNT: 20,
    });
  });

  it('reads how long analytics beacons are kept and how often they are counted, refusing nonsense by name', () => {
    expect(loadConfig({ ANALYTICS_RETENTION_DAYS: '7', ANALYTICS_AGGREGATE_SECONDS: '5' })).toMatchObject({
      ANALYTICS_RETENTION_DAYS: 7,
      ANALYTICS_AGGREGATE_SECONDS: 5,
    });
    expect(configErrorOf({ ANALYTICS_RETENTION_DAYS: '0' }).message).toMatch(/ANALYTICS_RETENTION_DAYS/);
    expect(configErrorOf({ ANALYTICS_AGGREGATE_SECONDS: 'soon' }).message).toMatch(/ANALYTICS_AGGREGATE_SECONDS/);
  });

  it('asks S3 storage for its region and bucket, naming what is missing', () => {
    expect(configErrorOf({ STORAGE_DRIVER: 's3', S3_REGION: 'eu-central-1' }).message).toMatch(
      /S3_BUCKET is required when STORAGE_DRIVER=s3/,
    );
    expect(
      loadConfig({ STORAGE_DRIVER: 's3', S3_REGION: 'auto', S3_BUCKET: 'admit', S3_FORCE_PATH_STYLE: 'true' }),
    ).toMatchObject({
      S3_BUCKET: 'admit',
      S3_FORCE_PATH_STYLE: true,
    });
  });

  it('reads the quotas per account, and refuses ones that are not positive whole numbers, naming them', () => {
    expect(loadConfig({ ORDER_MAX_HELD_PLACES: '4', INVITATIONS_PER_RECIPIENT: '2' })).toMatchObject({
      ORDER_MAX_HELD_PLACES: 4,
      INVITATIONS_PER_RECIPIENT: 2,
    });
    expect(configErrorOf({ ORDER_ATTEMPTS_PER_ACCOUNT: '0' }).message).toMatch(
      /^Configuration error: ORDER_ATTEMPTS_PER_ACCOUNT /,
    );
    expect(configErrorOf({ INVITATIONS_WINDOW_SECONDS: 'a day' }).message).toMatch(
      /^Configuration error: INVITATIONS_WINDOW_SECONDS /,
    );
  });

  it('reads the guest-list import limits, and refuses ones that are not positive whole numbers', () => {
    expect(loadConfig({ IMPORT_MAX_BYTES: '2048', IMPORT_MAX_ROWS: '10' })).toMatchObject({
      IMPORT_MAX_BYTES: 2048,
      IMPORT_MAX_ROWS: 10,
    });
    expect(() => loadConfig({ IMPORT_MAX_ROWS: '0' })).toThrow(/IMPORT_MAX_ROWS/);
    expect(() => loadConfig({ IMPORT_MAX_BYTES: 'ten megabytes' })).toThrow(/IMPORT_MAX_BYTES/);
  });

  it('treats an empty variable as unset, as a .env line like PORT= means', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', NODE_ENV: '' })).toMatchObject({ PORT: 3000, NODE_ENV: 'development' });
    expect(loadConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  it('reads the values it is given', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://admit@db:5432/admit',
      DATA_DIR: '/var/lib/admit',
      SMTP_URL: 'smtps://mailer:secret@smtp.example.org:465',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://admit@db:5432/admit',
      DATA_DIR: '/var/lib/admit',
      SMTP_URL: 'smtps://mailer:secret@smtp.example.org:465',
      TRUST_PROXY: true,
      LOG_LEVEL: 'warn',
    });
  });

  it('accepts a postgresql:// database URL as well as postgres://', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://admit@db/admit' }).DATABASE_URL).toBe('postgresql://admit@db/admit');
  });

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '80.5' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://tickets.example.org' }],
    ['SMTP_URL', { SMTP_URL: 'http://smtp.example.org' }],
    ['STORAGE_DRIVER', { STORAGE_DRIVER: 'floppy' }],
    ['STRIPE_SECRET_KEY', { STRIPE_SECRET_KEY: 'pk_test_123' }],
    ['STRIPE_PUBLISHABLE_KEY', { STRIPE_PUBLISHABLE_KEY: 'sk_test_123' }],
    ['STRIPE_WEBHOOK_SECRET', { STRIPE_WEBHOOK_SECRET: 'secret' }],
    ['AUTH_SECRET', { AUTH_SECRET: 'too-short' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'yes' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
  ])('refuses a bad %s with one line naming the variable', (variable, env) => {
    const error = configErrorOf(env);
    expect(error.message).not.toContain('\n');
    expect(error.message).toMatch(new RegExp(`^Configuration error: ${variable}\\b`));
  });

  it('shows the bad value, shortened when it is long', () => {
    expect(configErrorOf({ PORT: 'abc' }).message).toContain('(got "abc")');
    const long = configErrorOf({ DATABASE_URL: `mysql://${'x'.repeat(100)}` }).message;
    expect(long).toContain('…');
    expect(long.length).toBeLessThan(200);
  });

  it('listens on this machine only outside production, on every interface in production, and where HOST says', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'test' }).HOST).toBe('127.0.0.1');
    expect(loadConfig(production).HOST).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ ...production, HOST: '10.0.0.5' }).HOST).toBe('10.0.0.5');
  });

  it('starts in production when every required secret is set', () => {
    expect(loadConfig(production)).toMatchObject({ NODE_ENV: 'production', PUBLIC_URL: 'https://tickets.example.org' });
  });

  it.each(['AUTH_SECRET', 'PUBLIC_URL', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'SMTP_URL'])(
    'refuses to start in production without %s, naming it',
    (variable) => {
      const error = configErrorOf({ ...production, [variable]: undefined });
      expect(error.message).toBe(`Configuration error: ${variable} is required when NODE_ENV=production`);
    },
  );

  it('refuses a Stripe secret key without its publishable key, naming it', () => {
    const error = configErrorOf({ NODE_ENV: 'development', STRIPE_SECRET_KEY: 'sk_test_x' });
    expect(error.message).toBe('Configuration error: STRIPE_PUBLISHABLE_KEY is required with STRIPE_SECRET_KEY');
  });

  it('takes a wallet’s settings all together or not at all, naming the one missing', () => {
    const apple = {
      APPLE_PASS_TYPE_ID: 'pass.org.example.tickets',
      APPLE_TEAM_ID: 'A1B2C3D4E5',
      APPLE_PASS_CERT: '/etc/admit/pass.pem',
      APPLE_PASS_KEY: '/etc/admit/pass.key',
      APPLE_WWDR_CERT: '/etc/admit/wwdr.pem',
    };
    expect(loadConfig(apple)).toMatchObject(apple);
    expect(configErrorOf({ ...apple, APPLE_WWDR_CERT: undefined }).message).toBe(
      'Configuration error: APPLE_WWDR_CERT is required when APPLE_PASS_TYPE_ID is set',
    );
    expect(configErrorOf({ APPLE_PASS_KEY_PASSPHRASE: 'secret' }).message).toBe(
      'Configuration error: APPLE_PASS_KEY is required when APPLE_PASS_KEY_PASSPHRASE is set',
    );
    expect(configErrorOf({ ...apple, APPLE_TEAM_ID: 'team' }).message).toMatch(/^Configuration error: APPLE_TEAM_ID must be/);
    expect(configErrorOf({ GOOGLE_WALLET_ISSUER_ID: '3388000000012345678' }).message).toBe(
      'Configuration error: GOOGLE_WALLET_SERVICE_ACCOUNT is required when GOOGLE_WALLET_ISSUER_ID is set',
    );
    expect(
      configErrorOf({ GOOGLE_WALLET_ISSUER_ID: 'issuer', GOOGLE_WALLET_SERVICE_ACCOUNT: '/etc/admit/sa.json' }).message,
    ).toMatch(/^Configuration error: GOOGLE_WALLET_ISSUER_ID must be/);
  });

  it('does not require the production secrets in development or test', () => {
    expect(() => loadConfig({ NODE_ENV: 'development' })).not.toThrow();
    expect(() => loadConfig({ NODE_ENV: 'test' })).not.toThrow();
  });
});

describe('publicUrlOf', () => {
  it('uses PUBLIC_URL without a trailing slash, or localhost on the port', () => {
    expect(publicUrlOf(loadConfig({ PUBLIC_URL: 'https://tickets.example.org/' }), 3000)).toBe('https://tickets.example.org');
    expect(publicUrlOf(loadConfig({}), 4321)).toBe('http://localhost:4321');
  });
});
