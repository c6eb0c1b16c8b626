import { apiKeyPrefix } from '@admit/shared/api-keys';
import { Problem } from '@admit/shared/api-v1';
import { z } from 'zod';
import type { ApiRoute } from './api-route';

// The OpenAPI 3.1 document, made from the routes' zod schemas with zod's own z.toJSONSchema
// (JSON Schema 2020-12, which OpenAPI 3.1 uses as is): no second description to keep in step.

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

const rateHeaders = {
  'RateLimit-Limit': { description: 'Requests this key may make per window', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window starts again', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: 'The limit and its window, e.g. 600;w=60', schema: { type: 'string' } },
};

/** The JSON Schema of a zod schema, with named schemas (`.meta({ id })`) as references to components. */
function schemaOf(schema: z.ZodType, io: 'input' | 'output', components: Record<string, unknown>) {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' });
  const { $schema: _schema, $defs, id, ...rest } = json as Record<string, unknown> & { $defs?: Record<string, unknown> };
  for (const [name, definition] of Object.entries($defs ?? {})) components[name] = definition;
  if (typeof id === 'string') {
    components[id] = rest;
    return { $ref: `#/components/schemas/${id}` };
  }
  return rest;
}

/** Rewrites `#/$defs/X` references into `#/components/schemas/X`. */
const toComponents = (document: unknown) =>
  JSON.parse(JSON.stringify(document).replaceAll('"#/$defs/', '"#/components/schemas/')) as Record<string, unknown>;

function parametersOf(route: ApiRoute, components: Record<string, unknown>) {
  const parameters: unknown[] = [];
  for (const [location, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    const json = schemaOf(schema, 'input', components) as {
      properties?: Record<string, { description?: string }>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(json.properties ?? {}))
      parameters.push({
        name,
        in: location,
        required: location === 'path' || (json.required ?? []).includes(name),
        description: property.description,
        schema: property,
      });
  }
  if (route.method === 'POST')
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Any unique string up to 255 characters: the same request sent again with it within 24 hours gets the first answer',
      schema: { type: 'string', maxLength: 255 },
    });
  return parameters;
}

export function openApiDocument(routes: readonly ApiRoute[], serverUrl: string) {
  const components: Record<string, unknown> = {};
  schemaOf(Problem, 'output', components);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const operation = {
      operationId: route.operationId,
      summary: route.summary,
      description: [route.description, `Scopes: ${route.scopes.join(' or ')}.`].filter(Boolean).join('\n\n'),
      tags: [route.tag],
      parameters: parametersOf(route, components),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: schemaOf(route.body, 'input', components) } },
            },
          }
        : {}),
      responses: {
        [String(route.status ?? 200)]: {
          description: 'OK',
          headers: rateHeaders,
          content: { 'application/json': { schema: schemaOf(route.response, 'output', components) } },
        },
        400: problemResponse('The request is not valid (see `errors`)'),
        401: problemResponse('No API key, or one that does not exist or was revoked'),
        403: problemResponse("The key's scopes do not allow this"),
        404: problemResponse("No such thing in the key's organization"),
        ...(route.method === 'POST'
          ? {
              409: problemResponse('A request with this Idempotency-Key is under way'),
              422: problemResponse('This Idempotency-Key was used for another request'),
            }
          : {}),
        429: {
          ...problemResponse('Too many requests from this key: wait `Retry-After` seconds'),
          headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } }, ...rateHeaders },
        },
      },
    };
    (paths[`/api/v1${route.path}`] ??= {})[route.method.toLowerCase()] = operation;
  }
  return toComponents({
    openapi: '3.1.0',
    info: {
      title: 'Admit API',
      version: '1',
      description: [
        `Read an organization's events, orders, tickets, attendees, codes and questions, and scan tickets from another scanner. Authenticate with an API key made on the organization's page: \`Authorization: Bearer ${apiKeyPrefix}…\`.`,
        "Fields are snake_case. Times are ISO 8601 in UTC, with the event's IANA zone beside them in `time_zone`; amounts are integers in the minor unit of `currency`.",
        'Lists are ordered by `updated_at`, then `id`. Page with `cursor` while `has_more`; keep the last `next_cursor` and pass it later to get only what changed since (or use `updated_since`, going back a minute to cover changes committed late).',
        'Errors are `application/problem+json` (RFC 9457): `type`, `title`, `status`, `detail`, and `instance` (the request id).',
      ].join('\n\n'),
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      schemas: components,
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: `An API key (${apiKeyPrefix}…)` } },
    },
  });
}
