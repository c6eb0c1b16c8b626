// ESLint flat config for the whole repository: `npm run lint` (eslint . --max-warnings=0).
// Type-aware rules are left out on purpose: `npm run typecheck` already runs tsc, and lint stays fast.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import formatjs from 'eslint-plugin-formatjs';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = path.dirname(fileURLToPath(import.meta.url));

/** The sub-folders of a folder (relative to the repository root), read when the config loads. */
function foldersIn(relativeDir) {
  try {
    return readdirSync(path.join(root, relativeDir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return []; // the folder does not exist yet
  }
}

const webFeatures = 'apps/web/src/features';
const serverModules = 'apps/server/src/modules';

// Import boundaries (docs/style.md: a capability is a room). The zones are generated from the
// folders on disk, so a new feature or module is covered without touching this file.
const boundaryZones = [
  // Features never import each other; apps/web/src/app composes them.
  ...foldersIn(webFeatures).map((feature) => ({
    target: `${webFeatures}/${feature}`,
    from: webFeatures,
    except: [`./${feature}`],
    message: `Features do not import each other: move what "${feature}" shares into apps/web/src/lib, or compose them in apps/web/src/app.`,
  })),
  {
    target: 'apps/web/src/lib',
    from: [webFeatures, 'apps/web/src/app'],
    message: 'apps/web/src/lib is below features and app: it may not import them.',
  },
  // A module calls another only through its declared surface (<module>.api.ts); its tables are
  // readable through schema.ts. Everything else in a module folder is its own (docs/decisions/0026).
  ...foldersIn(serverModules).map((module, _index, modules) => ({
    target: `${serverModules}/${module}`,
    from: serverModules,
    except: [
      `./${module}`,
      ...modules.filter((other) => other !== module).flatMap((other) => [`./${other}/${other}.api.ts`, `./${other}/schema.ts`]),
    ],
    message: `Another module is reached through its surface: import "<module>/<module>.api.ts" (or its schema.ts for its tables), and export what "${module}" needs from there.`,
  })),
  {
    target: ['apps/server/src/app.ts', 'apps/server/src/main.ts', 'apps/server/src/composition.ts'],
    from: serverModules,
    except: foldersIn(serverModules).map((module) => `./${module}/${module}.api.ts`),
    message: 'app.ts composes the modules through their surfaces (<module>.api.ts).',
  },
  {
    target: 'apps/server/src/platform',
    from: serverModules,
    message: 'apps/server/src/platform is below the modules: it may not import them (app.ts composes them).',
  },
  {
    target: 'packages/shared',
    from: 'apps',
    message: 'packages/shared is used by both apps: it may not import from them.',
  },
  // The browser bundle and the server meet only in packages/shared.
  {
    target: 'apps/web',
    from: 'apps/server',
    message: 'The web app may not import server code: share it through packages/shared.',
  },
  { target: 'apps/server', from: 'apps/web', message: 'The server may not import web code: share it through packages/shared.' },
];

// A module writes only its own tables: another module's table may be read (its schema.ts is
// imported for joins), but an insert, update or delete of it goes through that module's front door
// (docs/decisions/0059-module-seams.md). Tests arrange their data as they need.
const ownTablesOnly = {
  meta: {
    type: 'problem',
    messages: {
      foreignWrite:
        '"{{table}}" is the {{owner}} module\'s table: change it through {{owner}}.api.ts (add a function there), not with {{verb}}.',
    },
    schema: [],
  },
  create(context) {
    const match = /apps\/server\/src\/modules\/([^/]+)\//.exec(context.filename.split(path.sep).join('/'));
    if (!match) return {};
    const own = match[1];
    /** Local names of tables imported from another module's schema.ts, with their module. */
    const foreign = new Map();
    return {
      ImportDeclaration(node) {
        const from = /^\.\.\/([^/]+)\/schema$/.exec(String(node.source.value));
        if (!from || from[1] === own) return;
        for (const specifier of node.specifiers) {
          if (specifier.type === 'ImportSpecifier') foreign.set(specifier.local.name, from[1]);
        }
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        const verb = callee.property.name;
        if (verb !== 'insert' && verb !== 'update' && verb !== 'delete') return;
        const [table] = node.arguments;
        if (table?.type !== 'Identifier' || !foreign.has(table.name)) return;
        context.report({ node, messageId: 'foreignWrite', data: { table: table.name, owner: foreign.get(table.name), verb } });
      },
    };
  },
};

// formatjs/no-literal-string-in-jsx checks JSX text and only the attributes listed here. Every other
// attribute is not shown to people (className, href, to, id, type, name, data-testid, variant, color,
// size, key, autoComplete, inputMode, role, Mantine's style props such as gap="md"...) and stays free.
const userVisibleProps = [
  [
    '*',
    '{children,label,title,placeholder,alt,description,error,message,legend,caption,tooltip,*Label,*Message,*Placeholder,*Title,*Description}',
  ],
  ['*', 'aria-{label,description,placeholder,roledescription,valuetext}'],
];
const notUserVisibleProps = [
  // The plugin's defaults also check these, but they hold element ids.
  ['*', 'aria-{details,errormessage}'],
  // A message's own source text and its note for translators (matched by *Message and description above).
  ['*', 'defaultMessage'],
  ['Formatted*', 'description'],
];

export default defineConfig(
  globalIgnores([
    '**/dist/',
    '**/dist-server/',
    '**/dist-archive/',
    '**/node_modules/',
    'data/',
    'apps/server/drizzle/',
    'bench/results/',
    'coverage/',
    'test-results/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,
  {
    name: 'admit/base',
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },

  {
    name: 'admit/import-boundaries',
    files: ['**/*.{ts,tsx,mts,cts,js,mjs,cjs,jsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // eslint-plugin-import-x 4.6 (the last one without native resolver bindings, see docs/decisions/0007).
      'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx', '.json'] } },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }],
    },
  },
  {
    // Modules call each other through their surfaces; a cycle between them would make two rooms one.
    name: 'admit/no-module-cycles',
    files: ['apps/server/src/modules/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // no-cycle reads the imported files itself: it needs to be told how to parse TypeScript.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx'],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },

  {
    // A module writes only its own tables (ownTablesOnly above).
    name: 'admit/own-tables-only',
    files: ['apps/server/src/modules/**/*.{ts,tsx}'],
    ignores: ['apps/server/src/modules/**/*.test.ts'],
    plugins: { admit: { rules: { 'own-tables-only': ownTablesOnly } } },
    rules: { 'admit/own-tables-only': 'error' },
  },

  {
    name: 'admit/web',
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.flat.recommended.rules,
  },
  {
    name: 'admit/web-messages',
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { formatjs },
    rules: {
      // Literal, so that `npm run i18n:extract` can read every default message.
      'formatjs/enforce-default-message': ['error', 'literal'],
      'formatjs/enforce-placeholders': 'error',
      'formatjs/no-multiple-whitespaces': 'error',
    },
  },
  {
    name: 'admit/web-no-bare-text',
    files: ['apps/web/src/**/*.tsx'],
    ignores: ['apps/web/src/**/*.test.tsx'],
    plugins: { formatjs },
    rules: {
      'formatjs/no-literal-string-in-jsx': ['error', { props: { include: userVisibleProps, exclude: notUserVisibleProps } }],
    },
  },
);
