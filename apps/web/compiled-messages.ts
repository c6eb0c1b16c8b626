import { parse } from '@formatjs/icu-messageformat-parser';
import { RolldownMagicString } from 'rolldown';
import { parseAst, type Plugin } from 'vite';
import { isolateArguments } from '../../packages/shared/src/locales.ts';

// Every message the app shows, parsed when the app is built rather than in the browser: the
// message catalogs and the default (English) texts in the code become message ASTs, which
// react-intl formats as they are, and the browser's build leaves the message parser out (decision
// 0050). A default text that is not a plain string fails the build rather than reach a browser that
// could not parse it.

type Node = { type: string; start: number; end: number; [key: string]: unknown };

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

/** Every node of a tree, depth first. */
function* nodesOf(node: unknown): Generator<Node> {
  if (Array.isArray(node)) {
    for (const child of node) yield* nodesOf(child);
    return;
  }
  if (!isNode(node)) return;
  yield node;
  for (const [key, value] of Object.entries(node)) if (key !== 'type' && typeof value === 'object') yield* nodesOf(value);
}

/** A string that is written out whole: a literal, or a template with no expression in it. */
function stringOf(node: Node): string | undefined {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && (node.expressions as unknown[]).length === 0)
    return (node.quasis as { value: { cooked: string } }[])[0]!.value.cooked;
  return undefined;
}

const keyName = (key: Node) => (key.type === 'Identifier' ? key.name : key.type === 'Literal' ? key.value : undefined);

/** `locales/<locale>.json`: each message parsed, the right-to-left ones' arguments isolated first (shared/locales.ts). */
function compileCatalog(json: string, locale: string): string {
  let catalog = JSON.parse(json) as Record<string, string>;
  if (locale === 'ar') catalog = isolateArguments(catalog);
  return JSON.stringify(Object.fromEntries(Object.entries(catalog).map(([id, message]) => [id, parse(message)])));
}

export function compiledMessages(): Plugin[] {
  return [
    {
      name: 'admit:compiled-catalogs',
      enforce: 'pre',
      transform(code, id) {
        const catalog = /\/src\/locales\/([a-z]{2})\.json$/.exec(id);
        return catalog ? { code: compileCatalog(code, catalog[1]!), map: null } : null;
      },
    },
    {
      // After the JSX is compiled, so that `<FormattedMessage defaultMessage="…" />` is a property too.
      name: 'admit:compiled-default-messages',
      enforce: 'post',
      transform(code, id) {
        if (!/\/apps\/web\/src\/.*\.[jt]sx?$/.test(id) || !code.includes('defaultMessage')) return null;
        const compiled = new RolldownMagicString(code);
        for (const node of nodesOf(parseAst(code))) {
          if (node.type !== 'Property' || keyName(node.key as Node) !== 'defaultMessage') continue;
          const value = node.value as Node;
          const message = stringOf(value);
          if (message === undefined) this.error(`${id}: a defaultMessage must be a plain string, to be compiled`);
          compiled.overwrite(value.start, value.end, JSON.stringify(parse(message)));
        }
        if (!compiled.hasChanged()) return null;
        // As text and a map, which the dev server takes too.
        return { code: compiled.toString(), map: compiled.generateMap({ hires: true, source: id }).toString() };
      },
    },
  ];
}
