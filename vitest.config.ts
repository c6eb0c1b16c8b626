import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const postgresUrl = process.env.TEST_DATABASE_URL;

/** The server suite: on PGlite always, and once more on PostgreSQL when TEST_DATABASE_URL names a server. */
const serverProject = (name: string, databaseUrl: string): TestProjectInlineConfiguration => ({
  test: {
    name,
    include: ['apps/server/src/**/*.test.ts'],
    // Lints code, needs no database: runs once, with the unit tests.
    exclude: ['apps/server/src/module-boundaries.test.ts'],
    environment: 'node',
    env: {
      TEST_DATABASE_URL: databaseUrl,
      // The S3 driver's tests: the SDK's notice that its 2027 releases need Node 22 (deploy/README.md says so).
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    globalSetup: ['apps/server/src/testing/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/shared/src/**/*.test.ts', 'apps/web/src/**/*.test.ts', 'apps/server/src/module-boundaries.test.ts'],
          environment: 'node',
        },
      },
      serverProject('server', ''),
      ...(postgresUrl ? [serverProject('server-postgres', postgresUrl)] : []),
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/support/global-setup.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // What a journey waits for with expect.poll may take as long as what Playwright's locators
          // wait for (10 s) on a loaded machine: the one-second default failed journeys under CI.
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
