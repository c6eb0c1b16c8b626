import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../platform/db/database';
import { authenticateKey, countRate, noteUse, requireScope, type CallingKey } from './api-key-auth';
import type { ApiRoute } from './api-route';
import { once } from './idempotency';
import { openApiDocument } from './openapi';
import { ApiProblem, sendProblem } from './problem';
import { apiRoutes } from './routes';
import { orgApiKeysTopic } from './topics';

export interface ApiDeps {
  db: Db;
  publicUrl: string;
  /** Requests one key may make per minute. */
  ratePerMinute: number;
  publish(topics: string[]): void;
}

const fieldErrors = (error: z.ZodError, prefix: string) =>
  error.issues.map((issue) => ({ path: [prefix, ...issue.path.map(String)].join('.'), message: issue.message }));

function parsed<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (!result.success)
    throw new ApiProblem(400, 'invalid-request', `The request's ${where} is not valid`, {
      errors: fieldErrors(result.error, where),
    });
  return result.data;
}

/**
 * The REST API under /api/v1 (decision 0062): each request's key is read and counted against its
 * rate before the route's scopes, input and handler; every refusal is problem+json, with the
 * rate headers when a key was found.
 */
export async function registerApiRoutes(app: FastifyInstance, deps: ApiDeps) {
  const document = openApiDocument(apiRoutes, deps.publicUrl);
  app.get('/api/v1/openapi.json', async (_request, reply) => reply.header('cache-control', 'no-cache').send(document));
  await registerApiDocs(app);

  await app.register(
    async (api) => {
      api.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
        if (error instanceof ApiProblem) return sendProblem(request, reply, error);
        const status = error.statusCode ?? 500;
        if (status >= 400 && status < 500)
          return sendProblem(
            request,
            reply,
            new ApiProblem(status, 'invalid-request', 'The request is not valid (its body must be JSON)'),
          );
        request.log.error({ err: error }, 'api request failed');
        return sendProblem(request, reply, new ApiProblem(500, 'internal', `Internal error (request ${request.id})`));
      });
      api.setNotFoundHandler((request, reply) =>
        sendProblem(request, reply, new ApiProblem(404, 'not-found', 'No such route in the API')),
      );
      for (const route of apiRoutes) registerRoute(api, route, deps);
    },
    { prefix: '/api/v1' },
  );
}

function registerRoute(api: FastifyInstance, route: ApiRoute, deps: ApiDeps) {
  api.route({
    method: route.method,
    url: route.path.replaceAll(/\{(\w+)\}/g, ':$1'),
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const found = await authenticateKey(deps.db, request);
      const key: CallingKey = { id: found.id, organizationId: found.organizationId, scopes: found.scopes };
      await countRate(deps.db, reply, key, deps.ratePerMinute);
      if (await noteUse(deps.db, found)) deps.publish([orgApiKeysTopic(key.organizationId)]);
      requireScope(key, route.scopes);
      const input = {
        params: parsed(route.params, request.params, 'path'),
        query: parsed(route.query, request.query, 'query'),
        body: route.body ? parsed(route.body, request.body, 'body') : undefined,
      };
      const topics: string[] = [];
      const ctx = { db: deps.db, key, log: request.log, publish: (...named: string[]) => topics.push(...named) };
      const run = async () => ({ status: route.status ?? 200, body: route.response.parse(await route.handler(input, ctx)) });
      const idempotencyKey = request.headers['idempotency-key'];
      if (route.method === 'POST' && idempotencyKey !== undefined) {
        if (typeof idempotencyKey !== 'string' || idempotencyKey.length < 1 || idempotencyKey.length > 255)
          throw new ApiProblem(400, 'invalid-request', 'Idempotency-Key must be 1 to 255 characters');
        const answer = await once(deps.db, { apiKeyId: key.id, key: idempotencyKey, request: [route.operationId, input] }, run);
        if (topics.length > 0) deps.publish(topics);
        if (answer.replayed) reply.header('Idempotent-Replayed', 'true');
        return reply.code(answer.status).send(answer.body);
      }
      const answer = await run();
      if (topics.length > 0) deps.publish(topics);
      return reply.code(answer.status).send(answer.body);
    },
  });
}

/** Swagger UI from its npm package (swagger-ui-dist), served here: no CDN, and no inline script for the CSP to refuse. */
async function registerApiDocs(app: FastifyInstance) {
  const folder = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const files = {
    'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
    'swagger-ui.css': 'text/css; charset=utf-8',
  } as const;
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Admit API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="api-docs"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/start.js"></script>
</body>
</html>
`;
  const start = `window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#api-docs', deepLinking: true, persistAuthorization: false });\n`;
  app.get('/api/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
  app.get('/api/docs/start.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(start));
  for (const [name, type] of Object.entries(files)) {
    let content: Promise<Buffer> | undefined;
    app.get(`/api/docs/${name}`, async (_request, reply) => {
      content ??= readFile(path.join(folder, name));
      return reply
        .type(type)
        .header('cache-control', 'public, max-age=3600')
        .send(await content);
    });
  }
}
