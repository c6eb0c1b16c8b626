import type { Config } from './platform/config';
import type { Database } from './platform/db/database';
import { storageFromConfig } from './platform/files/storage';
import { createMailer } from './platform/mail/mailer';
import type { PaymentProvider } from './platform/payments/payment-provider';
import { createSandboxProvider } from './platform/payments/sandbox-provider';
import { createSmsSender } from './platform/sms/sms-sender';

/**
 * The parts that talk to the outside world, as the configuration names them: the web process and
 * the worker process (worker.ts) build the same ones. Stripe's SDK and S3's are loaded only by a
 * process configured for them.
 */
export async function createServices(config: Config, database: Database, options: { payments?: PaymentProvider } = {}) {
  // Stripe when its keys are set (config.ts requires them in production), else the sandbox.
  const stripeApi = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : null;
  const payments =
    options.payments ??
    (config.STRIPE_SECRET_KEY
      ? (await import('./platform/payments/stripe-provider')).createStripeProvider({
          secretKey: config.STRIPE_SECRET_KEY,
          publishableKey: config.STRIPE_PUBLISHABLE_KEY!,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET,
          apiBase: stripeApi
            ? {
                host: stripeApi.hostname,
                port: Number(stripeApi.port || (stripeApi.protocol === 'https:' ? 443 : 80)),
                protocol: stripeApi.protocol === 'https:' ? 'https' : 'http',
              }
            : undefined,
        })
      : createSandboxProvider(database.db));
  const mailer = createMailer({ db: database.db, smtpUrl: config.SMTP_URL, from: 'Admit <no-reply@admit.local>' });
  const sms = createSmsSender({
    db: database.db,
    // config.ts refuses SMS_PROVIDER without the other three.
    gateway: config.SMS_PROVIDER
      ? {
          url: config.SMS_PROVIDER,
          accountSid: config.SMS_ACCOUNT_SID!,
          authToken: config.SMS_AUTH_TOKEN!,
          from: config.SMS_FROM!,
        }
      : undefined,
  });
  return { payments, mailer, sms, storage: await storageFromConfig(config) };
}
