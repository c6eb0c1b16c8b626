import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { openTestDatabase } from '../../testing/test-app';
import { ConfigError, loadConfig } from '../config';

const google = { GOOGLE_CLIENT_ID: 'google-id', GOOGLE_CLIENT_SECRET: 'google-secret' };
const oidc = {
  OIDC_ISSUER: 'http://127.0.0.1:9/realm',
  OIDC_CLIENT_ID: 'admit',
  OIDC_CLIENT_SECRET: 'oidc-secret',
  OIDC_NAME: 'Example ID',
};

function configErrorOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('federated provider configuration', () => {
  it.each([
    ['GITHUB_CLIENT_SECRET', { GITHUB_CLIENT_ID: 'id' }, 'is required when GITHUB_CLIENT_ID is set'],
    ['APPLE_CLIENT_ID', { APPLE_CLIENT_SECRET: 'secret' }, 'is required when APPLE_CLIENT_SECRET is set'],
    ['MICROSOFT_CLIENT_SECRET', { MICROSOFT_CLIENT_ID: 'id' }, 'is required when MICROSOFT_CLIENT_ID is set'],
    [
      'OIDC_CLIENT_SECRET',
      { OIDC_ISSUER: 'https://id.example.org', OIDC_CLIENT_ID: 'id' },
      'is required when OIDC_ISSUER is set',
    ],
    ['OIDC_ISSUER', { OIDC_NAME: 'Example ID' }, 'is required when OIDC_NAME is set'],
  ])('refuses a half-configured provider with one line naming %s', (variable, env, reason) => {
    const message = configErrorOf(env);
    expect(message).not.toContain('\n');
    expect(message).toBe(`Configuration error: ${variable} ${reason}`);
  });

  it('refuses an OIDC_ISSUER that is not a URL', () => {
    const message = configErrorOf({ ...oidc, OIDC_ISSUER: 'id.example.org' });
    expect(message).toMatch(/^Configuration error: OIDC_ISSUER .*\(got "id\.example\.org"\)$/);
  });

  it('accepts a fully configured provider', () => {
    expect(loadConfig({ ...google, ...oidc })).toMatchObject({ ...google, ...oidc });
  });
});

describe('GET /api/sign-in-methods', () => {
  const apps: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  async function signInMethodsWith(env: Record<string, string>) {
    const database = await openTestDatabase();
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }),
      database,
      publicUrl: 'http://localhost:3000',
      authSecret: 'test-secret-test-secret-test-secret-0123',
      rateLimit: false,
      logger: false,
    });
    apps.push({
      async close() {
        await app.close();
        await database.close();
      },
    });
    const response = await app.inject({ method: 'GET', url: '/api/sign-in-methods' });
    expect(response.statusCode).toBe(200);
    return response.json() as unknown;
  }

  it('lists no provider when none is configured', async () => {
    expect(await signInMethodsWith({})).toEqual({ providers: [] });
  });

  it('lists exactly the configured providers, the OpenID Connect one by its OIDC_NAME', async () => {
    expect(await signInMethodsWith({ ...google, ...oidc })).toEqual({
      providers: [
        { id: 'oidc', name: 'Example ID' },
        { id: 'google', name: 'Google' },
      ],
    });
  });

  it('names the OpenID Connect provider by its host when OIDC_NAME is not set', async () => {
    const { OIDC_NAME: _unused, ...unnamed } = oidc;
    expect(await signInMethodsWith(unnamed)).toEqual({ providers: [{ id: 'oidc', name: '127.0.0.1:9' }] });
  });
});
