import type { BetterAuthOptions } from 'better-auth';
import { genericOAuth } from 'better-auth/plugins';
import type { FastifyInstance } from 'fastify';
import type { SignInMethods } from '@admit/shared/sign-in';
import type { Config } from '../config';

/** The social providers Better Auth knows by name, with the prefix of their variables and their name for people. */
const socialProviders = [
  { id: 'google', prefix: 'GOOGLE', name: 'Google' },
  { id: 'github', prefix: 'GITHUB', name: 'GitHub' },
  { id: 'apple', prefix: 'APPLE', name: 'Apple' },
  { id: 'microsoft', prefix: 'MICROSOFT', name: 'Microsoft' },
] as const;

/** The generic OpenID Connect provider's id: its callback is /api/auth/callback/oidc. */
export const oidcProviderId = 'oidc';

export interface FederatedSignIn {
  /** Better Auth's `socialProviders` option: only the configured ones. */
  socialProviders: NonNullable<BetterAuthOptions['socialProviders']>;
  /** The genericOAuth plugin when OIDC_* is set. */
  plugins: ReturnType<typeof genericOAuth>[];
  /** What the sign-in page offers, in the order shown. */
  methods: SignInMethods;
}

/** The federated providers the configuration enables (config.ts refuses a half-configured one). */
export function federatedSignIn(config: Config): FederatedSignIn {
  const result: FederatedSignIn = { socialProviders: {}, plugins: [], methods: { providers: [] } };
  if (config.OIDC_ISSUER && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET) {
    const issuer = config.OIDC_ISSUER.replace(/\/$/, '');
    const name = config.OIDC_NAME ?? new URL(issuer).host;
    result.plugins.push(
      genericOAuth({
        config: [
          {
            providerId: oidcProviderId,
            name,
            discoveryUrl: `${issuer}/.well-known/openid-configuration`,
            // Identity comes from the ID token's claims: without verifiable ones the provider stays off.
            requireIdTokenVerification: true,
            clientId: config.OIDC_CLIENT_ID,
            clientSecret: config.OIDC_CLIENT_SECRET,
            // client_secret_basic: the method every OpenID provider must support (Core §9).
            authentication: 'basic',
            scopes: ['openid', 'email', 'profile'],
            // Signing out of Admit ends the Admit session only, as with the social providers: the
            // provider's own logout page in the middle of it would be a surprise.
            disableProviderLogout: true,
          },
        ],
      }),
    );
    result.methods.providers.push({ id: oidcProviderId, name });
  }
  for (const { id, prefix, name } of socialProviders) {
    const clientId = config[`${prefix}_CLIENT_ID`];
    const clientSecret = config[`${prefix}_CLIENT_SECRET`];
    if (!clientId || !clientSecret) continue;
    result.socialProviders[id] = { clientId, clientSecret };
    result.methods.providers.push({ id, name });
  }
  return result;
}

/** GET /api/sign-in-methods: the federated providers the sign-in page shows (outside /api/auth/*, which is Better Auth's). */
export function registerSignInMethods(app: FastifyInstance, methods: SignInMethods) {
  app.get('/api/sign-in-methods', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return methods;
  });
}
