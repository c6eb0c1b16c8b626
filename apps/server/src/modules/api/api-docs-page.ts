// The API's reference at /api/docs: one HTML page drawn from the OpenAPI document (openapi.ts), so
// it says what the document says. Plain headings, lists and tables, no script: it reads with a
// keyboard and a screen reader, prints, and needs nothing the Content-Security-Policy refuses.

type Json = Record<string, unknown>;

const escape = (text: unknown) =>
  String(text ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

/** A line of the document's short Markdown (`code`) as HTML. */
const inline = (text: unknown) => escape(text).replace(/`([^`]+)`/g, '<code>$1</code>');

/** The document's short Markdown (`code` and paragraphs) as HTML. */
const prose = (text: unknown) =>
  String(text ?? '')
    .split('\n\n')
    .filter(Boolean)
    .map((paragraph) => `<p>${inline(paragraph)}</p>`)
    .join('\n');

/** The kinds of problem a refusal's `type` names (`/api/docs#problem-<kind>`). */
const problemKinds: readonly [string, string][] = [
  ['invalid-request', 'The path, query or body is not valid: `errors` names each field and what is wrong with it.'],
  ['unauthenticated', 'No API key was sent, or the key does not exist or was revoked.'],
  ['insufficient-scope', "The key's scopes do not allow this route (a `door` key reads events and scans tickets only)."],
  [
    'not-found',
    "No such route, or no such thing in the key's organization (another organization's things are not found either).",
  ],
  ['idempotency-in-progress', 'A request with this Idempotency-Key is still being answered: send it again in a moment.'],
  ['idempotency-key-reused', 'This Idempotency-Key was used in the last 24 hours for a request with another body.'],
  ['rate-limited', 'The key made too many requests this minute: wait the `Retry-After` seconds.'],
  ['internal', 'Something failed on our side; `instance` is the request id to quote.'],
];

/** A reference `#/components/schemas/X` as a link to its section, else the schema's type in words. */
function typeOf(schema: Json | undefined): string {
  if (!schema) return '';
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').at(-1)!;
    return `<a href="#schema-${escape(name)}">${escape(name)}</a>`;
  }
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).map(typeOf).join(' or ');
  if (Array.isArray(schema.enum))
    return `one of ${(schema.enum as unknown[]).map((one) => `<code>${escape(one)}</code>`).join(', ')}`;
  if (schema.type === 'array') return `list of ${typeOf(schema.items as Json)}`;
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : String(schema.type ?? 'any');
  const format = schema.format ? ` (${escape(schema.format)})` : '';
  return `${escape(type)}${format}`;
}

/** An object schema's fields as a table; any other schema as its type. */
function fieldsOf(schema: Json | undefined, caption: string): string {
  if (!schema) return '';
  const properties = schema.properties as Record<string, Json> | undefined;
  if (!properties) return `<p>${escape(caption)}: ${typeOf(schema)}</p>`;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const rows = Object.entries(properties)
    .map(
      ([name, property]) =>
        `<tr><th scope="row"><code>${escape(name)}</code></th><td>${typeOf(property)}${required.has(name) ? '' : ', optional'}</td><td>${inline(property.description)}</td></tr>`,
    )
    .join('\n');
  return `<table><caption>${escape(caption)}</caption><thead><tr><th scope="col">field</th><th scope="col">type</th><th scope="col">meaning</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The whole page for an OpenAPI document. */
export function apiDocsPage(document: Json): string {
  const info = document.info as Json;
  const paths = document.paths as Record<string, Record<string, Json>>;
  const schemas = ((document.components as Json).schemas ?? {}) as Record<string, Json>;
  const operations = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );
  const tags = [...new Set(operations.map((one) => String((one.operation.tags as string[])[0])))];
  const sections = tags.map((tag) => {
    const ofTag = operations.filter((one) => (one.operation.tags as string[])[0] === tag);
    const body = ofTag
      .map(({ path, method, operation }) => {
        const parameters = (operation.parameters as Json[]) ?? [];
        const parameterRows = parameters
          .map(
            (parameter) =>
              `<tr><th scope="row"><code>${escape(parameter.name)}</code></th><td>${escape(parameter.in)}${parameter.required ? '' : ', optional'}</td><td>${typeOf(parameter.schema as Json)}</td><td>${inline(parameter.description)}</td></tr>`,
          )
          .join('\n');
        const requestSchema = ((operation.requestBody as Json | undefined)?.content as Json | undefined)?.['application/json'] as
          Json | undefined;
        const [status, answer] = Object.entries(operation.responses as Record<string, Json>)[0]!;
        const answerSchema = ((answer.content as Json)['application/json'] as Json).schema as Json;
        return `<section aria-labelledby="op-${escape(operation.operationId)}">
<h3 id="op-${escape(operation.operationId)}"><code>${method} /${escape(path.replace(/^\//, ''))}</code> — ${escape(operation.summary)}</h3>
${prose(operation.description)}
${parameters.length > 0 ? `<table><caption>Parameters</caption><thead><tr><th scope="col">name</th><th scope="col">in</th><th scope="col">type</th><th scope="col">meaning</th></tr></thead><tbody>${parameterRows}</tbody></table>` : ''}
${requestSchema ? fieldsOf(requestSchema.schema as Json, 'Body (JSON)') : ''}
${fieldsOf(answerSchema, `Answer ${status} (JSON)`)}
</section>`;
      })
      .join('\n');
    return `<section aria-labelledby="tag-${escape(tag)}"><h2 id="tag-${escape(tag)}">${escape(tag)}</h2>\n${body}</section>`;
  });
  const schemaSections = Object.entries(schemas)
    .map(
      ([name, schema]) =>
        `<section aria-labelledby="schema-${escape(name)}"><h3 id="schema-${escape(name)}">${escape(name)}</h3>${prose(schema.description)}${fieldsOf(schema, name)}</section>`,
    )
    .join('\n');
  const problems = problemKinds
    .map(([kind, meaning]) => `<dt id="problem-${kind}"><code>${kind}</code></dt><dd>${prose(meaning)}</dd>`)
    .join('\n');
  const contents = tags.map((tag) => `<li><a href="#tag-${escape(tag)}">${escape(tag)}</a></li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(info.title)} — reference</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; color: #1a1b1e; }
code { font-family: ui-monospace, monospace; background: #f1f3f5; padding: 0 0.2em; border-radius: 3px; overflow-wrap: anywhere; }
h3 { margin-top: 2rem; border-top: 1px solid #dee2e6; padding-top: 1rem; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; display: block; overflow-x: auto; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid #dee2e6; padding: 0.3rem 0.5rem; }
a { color: #1864ab; }
a:focus-visible { outline: 3px solid #1864ab; outline-offset: 2px; }
</style>
</head>
<body>
<header><h1>${escape(info.title)}</h1>
<p>Version ${escape(info.version)} · the same as a machine-readable <a href="/api/v1/openapi.json">OpenAPI 3.1 document</a>.</p></header>
<nav aria-label="Contents"><ul>${contents}<li><a href="#schemas">Objects</a></li><li><a href="#problems">Problems</a></li></ul></nav>
<main>
${prose(info.description)}
${sections.join('\n')}
<section aria-labelledby="schemas"><h2 id="schemas">Objects</h2>${schemaSections}</section>
<section aria-labelledby="problems"><h2 id="problems">Problems</h2><p>Every refusal is <code>application/problem+json</code>; its <code>type</code> is one of these.</p><dl>${problems}</dl></section>
</main>
</body>
</html>
`;
}
