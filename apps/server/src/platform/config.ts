import { z } from 'zod';

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());
const positiveInt = (fallback: number) => optional(z.coerce.number().int().min(1)).transform((value) => value ?? fallback);

const ConfigSchema = z
  .object({
    NODE_ENV: optional(z.enum(['development', 'production', 'test'])).transform((value) => value ?? 'development'),
    PORT: optional(z.coerce.number().int().min(0).max(65535)).transform((value) => value ?? 3000),
    /** Where to listen; without it, see the end of this schema (this machine only, outside production). */
    HOST: optional(z.string()),
    PUBLIC_URL: optional(z.url({ protocol: /^https?$/ })),
    DATABASE_URL: optional(z.url({ protocol: /^postgres(ql)?$/ })),
    /**
     * A direct connection to PostgreSQL for what a transaction-mode pooler (PgBouncer) cannot carry:
     * LISTEN and the job queue. Absent: DATABASE_URL serves for both.
     */
    DATABASE_DIRECT_URL: optional(z.url({ protocol: /^postgres(ql)?$/ })),
    /**
     * Where background jobs (emails, hold expiry, refunds to retry) run: `in-process` in this server
     * (the embedded default), or `off` when `npm run worker` processes run them.
     */
    JOB_WORKERS: optional(z.enum(['in-process', 'off'])).transform((value) => value ?? 'in-process'),
    /** Connections to PostgreSQL per process (the pool behind every callable). */
    DATABASE_POOL_SIZE: positiveInt(20),
    DATA_DIR: optional(z.string()).transform((value) => value ?? './data'),
    /**
     * The browser build of the web app to serve (default apps/web/dist); its server build
     * (dist-server) and the earlier builds' assets (dist-archive) are next to it.
     */
    WEB_DIST_DIR: optional(z.string()),
    STORAGE_DRIVER: optional(z.enum(['local', 's3'])).transform((value) => value ?? 'local'),
    /** S3-compatible object storage (STORAGE_DRIVER=s3): AWS, or MinIO, R2, Ceph… at S3_ENDPOINT. */
    S3_ENDPOINT: optional(z.url({ protocol: /^https?$/ })),
    S3_REGION: optional(z.string()),
    S3_BUCKET: optional(z.string()),
    S3_ACCESS_KEY_ID: optional(z.string()),
    S3_SECRET_ACCESS_KEY: optional(z.string()),
    /** Bucket in the path (`endpoint/bucket/key`) rather than the host name: what most S3-compatible servers need. */
    S3_FORCE_PATH_STYLE: optional(z.enum(['true', 'false'])).transform((value) => value === 'true'),
    /** Uploaded images: the largest file in bytes, and the most pixels (a decompression bomb is refused before decoding). */
    FILE_MAX_BYTES: positiveInt(10 * 1024 * 1024),
    IMAGE_MAX_PIXELS: positiveInt(40_000_000),
    /** Analytics: days the raw beacons are kept (the daily rows stay), and how often they are counted into those. */
    ANALYTICS_RETENTION_DAYS: positiveInt(30),
    ANALYTICS_AGGREGATE_SECONDS: positiveInt(60),
    SMTP_URL: optional(z.url({ protocol: /^smtps?$/ })),
    SMS_PROVIDER: optional(z.url({ protocol: /^https?$/ })),
    SMS_ACCOUNT_SID: optional(z.string()),
    SMS_AUTH_TOKEN: optional(z.string()),
    SMS_FROM: optional(z.string()),
    STRIPE_SECRET_KEY: optional(z.string().regex(/^sk_(test|live)_/, 'must start with sk_test_ or sk_live_')),
    STRIPE_PUBLISHABLE_KEY: optional(z.string().regex(/^pk_(test|live)_/, 'must start with pk_test_ or pk_live_')),
    STRIPE_WEBHOOK_SECRET: optional(z.string().regex(/^whsec_/, 'must start with whsec_')),
    /** Where the server's Stripe calls go instead of https://api.stripe.com (a local stand-in in tests). */
    STRIPE_API_URL: optional(z.url({ protocol: /^https?$/ })),
    AUTH_SECRET: optional(z.string().min(32, 'must be at least 32 characters')),
    TRUST_PROXY: optional(z.enum(['true', 'false'])).transform((value) => value === 'true'),
    LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])).transform(
      (value) => value ?? 'info',
    ),
    /**
     * The bearer token that reads GET /metrics (decision 0033). Unset: /metrics is not served in
     * production, and elsewhere only to connections from this machine.
     */
    METRICS_TOKEN: optional(
      z
        .string()
        .min(32, 'must be at least 32 characters')
        .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
    ),
    GOOGLE_CLIENT_ID: optional(z.string()),
    GOOGLE_CLIENT_SECRET: optional(z.string()),
    GITHUB_CLIENT_ID: optional(z.string()),
    GITHUB_CLIENT_SECRET: optional(z.string()),
    APPLE_CLIENT_ID: optional(z.string()),
    APPLE_CLIENT_SECRET: optional(z.string()),
    MICROSOFT_CLIENT_ID: optional(z.string()),
    MICROSOFT_CLIENT_SECRET: optional(z.string()),
    OIDC_ISSUER: optional(z.url({ protocol: /^https?$/ })),
    OIDC_CLIENT_ID: optional(z.string()),
    OIDC_CLIENT_SECRET: optional(z.string()),
    OIDC_NAME: optional(z.string()),
    /** Guest-list import limits: the largest file, in bytes, and the most rows it may have. */
    IMPORT_MAX_BYTES: optional(z.coerce.number().int().min(1)).transform((value) => value ?? 10 * 1024 * 1024),
    IMPORT_MAX_ROWS: optional(z.coerce.number().int().min(1)).transform((value) => value ?? 50_000),
    /**
     * What one /live client may hold on a server process (decision 0029): unsent bytes per socket
     * before it is closed, subscriptions per socket, open sockets per client address and per account.
     */
    LIVE_MAX_BUFFERED_BYTES: optional(z.coerce.number().int().min(65_536)).transform((value) => value ?? 4 * 1024 * 1024),
    LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET: optional(z.coerce.number().int().min(1)).transform((value) => value ?? 100),
    LIVE_MAX_SOCKETS_PER_ADDRESS: optional(z.coerce.number().int().min(1)).transform((value) => value ?? 50),
    LIVE_MAX_SOCKETS_PER_ACCOUNT: optional(z.coerce.number().int().min(1)).transform((value) => value ?? 20),
    /** Requests one REST API key may make per minute, on all server processes together (decision 0062). */
    API_RATE_LIMIT_PER_MINUTE: positiveInt(600),
    /**
     * Quotas per account (decision 0030). Places one buyer may hold in pending orders of one
     * event; order attempts per account and per client address in a window; invitations per
     * account and per recipient address in a window.
     */
    ORDER_MAX_HELD_PLACES: positiveInt(20),
    ORDER_ATTEMPTS_WINDOW_SECONDS: positiveInt(10 * 60),
    ORDER_ATTEMPTS_PER_ACCOUNT: positiveInt(30),
    ORDER_ATTEMPTS_PER_ADDRESS: positiveInt(300),
    INVITATIONS_WINDOW_SECONDS: positiveInt(24 * 60 * 60),
    INVITATIONS_PER_ACCOUNT: positiveInt(50),
    INVITATIONS_PER_RECIPIENT: positiveInt(5),
    /**
     * Emails to people who never bought anything (guests of an imported list emailed their
     * tickets, messages to them), per account and per organization, in the last hour and day.
     * An account or organization with no paid order yet has the lower NEW limits (decision 0053).
     */
    GUEST_MAIL_PER_ACCOUNT_HOUR: positiveInt(1_000),
    GUEST_MAIL_PER_ACCOUNT_DAY: positiveInt(5_000),
    GUEST_MAIL_PER_ORG_HOUR: positiveInt(2_000),
    GUEST_MAIL_PER_ORG_DAY: positiveInt(10_000),
    GUEST_MAIL_NEW_PER_HOUR: positiveInt(100),
    GUEST_MAIL_NEW_PER_DAY: positiveInt(300),
    /**
     * Webhooks to addresses on private, loopback or link-local networks: refused in production
     * (an admin could otherwise make Admit call its own network), allowed elsewhere (decision 0063).
     */
    WEBHOOKS_ALLOW_PRIVATE: optional(z.enum(['true', 'false'])),
    /** The wait before a failed webhook's first retry; each next one waits twice as long (at most 8 h). */
    WEBHOOKS_RETRY_FIRST_SECONDS: optional(z.coerce.number().min(0.1).max(3600)).transform((value) => value ?? 30),
    /** How long a webhook is retried, and how long an endpoint may fail before it is disabled. */
    WEBHOOKS_GIVE_UP_AFTER_SECONDS: positiveInt(3 * 24 * 60 * 60),
    /**
     * Apple Wallet passes (decision 0067), from the operator's Apple developer account: the Pass Type
     * ID and the Team ID, and paths to PEM files (not the PEM text): the pass type certificate, its
     * private key (with its passphrase when the key is encrypted) and Apple's WWDR intermediate
     * certificate. All of them or none. None: outside production passes are signed by a development
     * chain the process makes itself, which Wallet refuses; in production the pass route answers 404.
     */
    APPLE_PASS_TYPE_ID: optional(
      z.string().regex(/^pass\.[A-Za-z0-9.-]+$/, 'must be a Pass Type ID such as pass.org.example.tickets'),
    ),
    APPLE_TEAM_ID: optional(z.string().regex(/^[A-Z0-9]{10}$/, 'must be the 10 letters and digits of an Apple Team ID')),
    APPLE_PASS_CERT: optional(z.string()),
    APPLE_PASS_KEY: optional(z.string()),
    APPLE_PASS_KEY_PASSPHRASE: optional(z.string()),
    APPLE_WWDR_CERT: optional(z.string()),
    /**
     * Where a pass's changes are pushed to the devices that keep it (Apple's push service, with the
     * pass type certificate). Unset: Apple's own with the Apple settings; outside production without
     * them, nothing is pushed. Tests point it at a local stand-in (HTTP/2 without TLS).
     */
    APPLE_PUSH_URL: optional(z.url({ protocol: /^https?$/ })),
    /**
     * Google Wallet passes (decision 0067): the issuer ID of the operator's Google Wallet account, and
     * the path to the JSON key file of the service account it allowed (`client_email`, `private_key`).
     * Both or neither. Neither: outside production save links are signed with a development key the
     * process makes itself, which Google refuses; in production the link's route answers 404.
     */
    GOOGLE_WALLET_ISSUER_ID: optional(z.string().regex(/^\d{1,30}$/, 'must be the digits of a Google Wallet issuer ID')),
    GOOGLE_WALLET_SERVICE_ACCOUNT: optional(z.string()),
    /**
     * Where a saved Google pass's changes are sent (Google's Wallet REST API, and the token endpoint
     * its service account signs in at). Unset: Google's own with the Google settings; outside
     * production without them, nothing is sent. Tests point both at a local stand-in.
     */
    GOOGLE_WALLET_API_URL: optional(z.url({ protocol: /^https?$/ })),
    GOOGLE_OAUTH_TOKEN_URL: optional(z.url({ protocol: /^https?$/ })),
  })
  .superRefine((config, ctx) => {
    // A federated provider is on with its id and secret; one without the other is a mistake, not "off".
    for (const prefix of ['GOOGLE', 'GITHUB', 'APPLE', 'MICROSOFT'] as const) {
      const [id, secret] = [`${prefix}_CLIENT_ID`, `${prefix}_CLIENT_SECRET`] as const;
      if (config[id] && !config[secret])
        ctx.addIssue({ code: 'custom', path: [secret], message: `is required when ${id} is set` });
      if (config[secret] && !config[id])
        ctx.addIssue({ code: 'custom', path: [id], message: `is required when ${secret} is set` });
    }
    const oidc = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
    const oidcSet = [...oidc, 'OIDC_NAME' as const].find((name) => config[name]);
    if (oidcSet) {
      for (const name of oidc) {
        if (!config[name]) ctx.addIssue({ code: 'custom', path: [name], message: `is required when ${oidcSet} is set` });
      }
    }
    if (config.SMS_PROVIDER) {
      for (const name of ['SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM'] as const) {
        if (!config[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when SMS_PROVIDER is set' });
      }
    }
    if (config.STORAGE_DRIVER === 's3') {
      for (const name of ['S3_REGION', 'S3_BUCKET'] as const) {
        if (!config[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when STORAGE_DRIVER=s3' });
      }
    }
    // A wallet's settings work together: some of them without the others are a mistake, not "off".
    const wallets = [
      ['APPLE_PASS_TYPE_ID', 'APPLE_TEAM_ID', 'APPLE_PASS_CERT', 'APPLE_PASS_KEY', 'APPLE_WWDR_CERT'],
      ['GOOGLE_WALLET_ISSUER_ID', 'GOOGLE_WALLET_SERVICE_ACCOUNT'],
    ] as const;
    for (const names of wallets) {
      const set = names.find((name) => config[name]);
      for (const name of set ? names : []) {
        if (!config[name]) ctx.addIssue({ code: 'custom', path: [name], message: `is required when ${set} is set` });
      }
    }
    if (config.APPLE_PASS_KEY_PASSPHRASE && !config.APPLE_PASS_KEY)
      ctx.addIssue({ code: 'custom', path: ['APPLE_PASS_KEY'], message: 'is required when APPLE_PASS_KEY_PASSPHRASE is set' });
    if (config.STRIPE_SECRET_KEY && !config.STRIPE_PUBLISHABLE_KEY)
      ctx.addIssue({ code: 'custom', path: ['STRIPE_PUBLISHABLE_KEY'], message: 'is required with STRIPE_SECRET_KEY' });
    if (config.NODE_ENV !== 'production') return;
    if (config.STRIPE_API_URL)
      ctx.addIssue({ code: 'custom', path: ['STRIPE_API_URL'], message: 'is for tests only, not when NODE_ENV=production' });
    // Without SMTP every email (tickets, sign-in links, invitations) would go to the dev outbox,
    // which production does not serve: nobody would get them.
    for (const name of ['AUTH_SECRET', 'PUBLIC_URL', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'SMTP_URL'] as const) {
      if (!config[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when NODE_ENV=production' });
    }
  })
  // Outside production the dev outbox holds every sign-in link and the sandbox takes test cards:
  // without HOST, only this machine may connect (`npm start` on a café's network exposes nothing).
  .transform((config) => ({
    ...config,
    HOST: config.HOST ?? (config.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    WEBHOOKS_ALLOW_PRIVATE: config.WEBHOOKS_ALLOW_PRIVATE
      ? config.WEBHOOKS_ALLOW_PRIVATE === 'true'
      : config.NODE_ENV !== 'production',
  }));

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {}

/** Reads the configuration from the environment; a bad value fails with one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const variable = issue.path.join('.');
  const value = env[variable];
  const shown = value === undefined ? '' : ` (got ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  throw new ConfigError(`Configuration error: ${variable} ${issue.message}${shown}`);
}

export function publicUrlOf(config: Config, port: number): string {
  return (config.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
}
