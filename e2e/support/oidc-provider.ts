import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Account, type Configuration } from 'oidc-provider';

export interface TestAccount {
  /** What is typed as "login" in the provider's sign-in form; the account's `sub`. */
  login: string;
  email: string;
  name: string;
}

export interface OidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

/**
 * A real OpenID provider (`oidc-provider`) on a free port of 127.0.0.1, with one confidential
 * client whose redirect URI is `redirectUri`. Its sign-in and consent pages are the package's dev
 * interactions: any password is accepted for a login in `accounts`.
 */
export async function startOidcProvider(options: { redirectUri: string; accounts: TestAccount[] }): Promise<OidcProvider> {
  const clientId = 'admit-test';
  const clientSecret = 'admit-test-secret-admit-test-secret';
  // The issuer names the port, so the server listens first and the provider is made afterwards.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['oidc-provider-test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, sub): Promise<Account | undefined> {
      const account = options.accounts.find((candidate) => candidate.login === sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: account.email, email_verified: true, name: account.name }),
      };
    },
  };
  const provider = new Provider(issuer, configuration);
  // Its dev-mode warnings (dev interactions, generated keys) are expected here.
  provider.on('server_error', (_ctx, error) => console.error('[oidc-provider]', error));
  server.on('request', provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
