import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// What the browser loads before the first paint of any page: main.tsx and everything it imports
// statically. Read from the sources, so that a static import of a heavy feature fails here in a
// second rather than in a build's sizes (decision 0042).

const webSource = dirname(fileURLToPath(import.meta.url));
const sharedSource = resolve(webSource, '../../../packages/shared/src');

/** Static imports and re-exports of a file; `import type` and `import(…)` are not followed. */
function staticImportsOf(code: string): string[] {
  const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const specifiers: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (const match of withoutComments.matchAll(statement)) {
    const [, keyword, typeOnly, clause, specifier] = match;
    if (typeOnly) continue;
    if (keyword === 'export' && !clause) continue;
    // `import { type A, type B } from` brings nothing at run time either.
    if (clause && /^\{[^}]*\}\s+from\s+$/.test(clause) && clause.split(',').every((name) => /^\{?\s*type\s/.test(name.trim())))
      continue;
    specifiers.push(specifier!);
  }
  return specifiers;
}

function resolveSource(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else if (specifier.startsWith('@admit/shared/')) base = join(sharedSource, specifier.slice('@admit/shared/'.length));
  else return undefined;
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((path) => existsSync(path) && !path.endsWith('/'));
}

/** The source files and packages loaded with `entry`, following static imports only. */
function staticGraphOf(entry: string) {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.tsx?$/.test(file)) continue;
    for (const specifier of staticImportsOf(readFileSync(file, 'utf8'))) {
      const resolved = resolveSource(file, specifier);
      if (resolved) pending.push(resolved);
      else if (!specifier.startsWith('.')) packages.add(specifier);
    }
  }
  return { files: [...files].map((file) => relative(webSource, file)), packages: [...packages] };
}

/** The names `files` import from `name` (`import { A, B } from 'name'`), types left out. */
function namesImportedFrom(files: string[], name: string): string[] {
  const names = new Set<string>();
  const statement = new RegExp(`^\\s*import\\s+\\{([^}]*)\\}\\s+from\\s+['"]${name}['"]`, 'gm');
  for (const file of files.filter((one) => /\.tsx?$/.test(one))) {
    for (const match of readFileSync(resolve(webSource, file), 'utf8').matchAll(statement)) {
      for (const imported of match[1]!.split(',').map((part) => part.trim())) {
        if (imported && !imported.startsWith('type ')) names.add(imported.split(/\s+as\s+/)[0]!);
      }
    }
  }
  return [...names];
}

describe('the initial chunk', () => {
  const graph = staticGraphOf(join(webSource, 'main.tsx'));

  it('reads the app shell and the public pages from main.tsx', () => {
    // The resolver itself: if it followed nothing, every assertion below would pass for nothing.
    expect(graph.files).toEqual(expect.arrayContaining(['app/app.tsx', 'app/router.tsx', 'app/shell.tsx']));
    expect(graph.packages).toEqual(expect.arrayContaining(['react', '@mantine/core', '@tanstack/react-router']));
  });

  it('leaves out the scanner, the import wizard and the analytics pages', () => {
    const heavy = graph.files.filter((file) =>
      /^features\/(checkin\/scanner|checkin\/camera-scanner|imports\/|analytics\/)/.test(file),
    );
    expect(heavy).toEqual([]);
  });

  it('leaves out Stripe, the charts, zxing and the barcode detector', () => {
    const heavy = graph.packages.filter((name) =>
      /^(@stripe\/|@mantine\/charts|recharts|zxing-wasm|barcode-detector|papaparse)/.test(name),
    );
    expect(heavy).toEqual([]);
  });

  it('leaves out the checkout, the phone number library and the sign-in forms', () => {
    expect(graph.files.filter((file) => /^features\/(checkout|account)\//.test(file))).toEqual([]);
    expect(graph.packages.filter((name) => /^(libphonenumber-js|@mantine\/form|@mantine\/dropzone)/.test(name))).toEqual([]);
  });

  it('leaves out zod, dayjs and every contract module with schemas: the public pages name their contracts by reference', () => {
    expect(graph.packages.filter((name) => /^(zod|dayjs)(\/|$)/.test(name))).toEqual([]);
    const withSchemas = graph.files.filter(
      (file) => file.includes('packages/shared/') && /from ['"]zod['"]/.test(readFileSync(resolve(webSource, file), 'utf8')),
    );
    expect(withSchemas).toEqual([]);
  });

  it('leaves out Better Auth’s client, which loads when a screen first asks who is signed in', () => {
    expect(graph.packages.filter((name) => /^(better-auth|@better-auth\/|@better-fetch\/)/.test(name))).toEqual([]);
    expect(graph.files).not.toContain('lib/auth-client.ts');
  });

  it('leaves out the offline cache, IndexedDB and the scans waiting for the network, which load as the app starts', () => {
    expect(graph.packages.filter((name) => /^(idb-keyval|@tanstack\/react-query-persist-client)$/.test(name))).toEqual([]);
    expect(graph.files.filter((file) => /^(lib\/offline-cache|features\/checkin\/offline-scans)\.ts$/.test(file))).toEqual([]);
  });
});

describe('the event page’s first view (the first load, the ticket picker and the waiting list, loaded before the page is taken over)', () => {
  const graph = staticGraphOf(join(webSource, 'main.tsx'));
  const picker = staticGraphOf(join(webSource, 'features/checkout/ticket-picker.tsx'));
  const waitlist = staticGraphOf(join(webSource, 'features/waitlist/event-waitlist.tsx'));
  const files = [...new Set([...graph.files, ...picker.files, ...waitlist.files])];

  it('reads the picker, the waiting list and Mantine’s components from the sources', () => {
    expect(picker.files).toEqual(expect.arrayContaining(['features/checkout/code-entry.tsx']));
    expect(waitlist.files).toEqual(expect.arrayContaining(['features/waitlist/join-waitlist.tsx']));
    expect(namesImportedFrom(files, '@mantine/core')).toEqual(expect.arrayContaining(['Button', 'Card']));
  });

  it('leaves out zod and every contract module with schemas: the picker and the waiting list name their contracts by reference', () => {
    expect([...picker.packages, ...waitlist.packages].filter((name) => /^(zod|dayjs)(\/|$)/.test(name))).toEqual([]);
    const withSchemas = files.filter(
      (file) => file.includes('packages/shared/') && /from ['"]zod['"]/.test(readFileSync(resolve(webSource, file), 'utf8')),
    );
    expect(withSchemas).toEqual([]);
  });

  it('draws the shell, the layouts, the language menu and the ticket count without the heavier Mantine components', () => {
    const heavy = ['AppShell', 'Grid', 'SimpleGrid', 'NativeSelect', 'NumberInput', 'Input', 'TextInput', 'Modal', 'Menu'];
    expect(namesImportedFrom(files, '@mantine/core').filter((name) => heavy.includes(name))).toEqual([]);
  });

  it('loads the code’s field when it is opened, and the answers’ checks when an order fails', () => {
    expect(files.filter((file) => /^(features\/checkout\/code-field\.tsx|lib\/form\.ts)$/.test(file))).toEqual([]);
  });
});
