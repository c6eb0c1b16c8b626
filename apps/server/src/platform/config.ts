import { z } from 'zod';

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());

const ConfigSchema = z
  .object({
    NODE_ENV: optional(z.enum(['development', 'production', 'test'])).transform((value) => value ?? 'development'),
    PORT: optional(z.coerce.number().int().min(0).max(65535)).transform((value) => value ?? 3000),
    HOST: optional(z.string()).transform((value) => value ?? '0.0.0.0'),
    PUBLIC_URL: optional(z.url({ protocol: /^https?$/ })),
    DATABASE_URL: optional(z.url({ protocol: /^postgres(ql)?$/ })),
    DATA_DIR: optional(z.string()).transform((value) => value ?? './data'),
    STORAGE_DRIVER: optional(z.enum(['local', 's3'])).transform((value) => value ?? 'local'),
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
    /** Guest-list import limits (issue 6): the largest file, in bytes, and the most rows it may have. */
    IMPORT_MAX_BYTES: optional(z.coerce.number().int().min(1)).transform((value) => value ?? 10 * 1024 * 1024),
    IMPORT_MAX_ROWS: optional(z.coerce.number().int().min(1)).transform((value) => value ?? 50_000),
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
    if (config.STRIPE_SECRET_KEY && !config.STRIPE_PUBLISHABLE_KEY)
      ctx.addIssue({ code: 'custom', path: ['STRIPE_PUBLISHABLE_KEY'], message: 'is required with STRIPE_SECRET_KEY' });
    if (config.NODE_ENV !== 'production') return;
    if (config.STRIPE_API_URL)
      ctx.addIssue({ code: 'custom', path: ['STRIPE_API_URL'], message: 'is for tests only, not when NODE_ENV=production' });
    for (const name of ['AUTH_SECRET', 'PUBLIC_URL', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
      if (!config[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when NODE_ENV=production' });
    }
  });

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
