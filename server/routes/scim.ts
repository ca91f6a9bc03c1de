import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { SSO_DETAILS } from '#contract/sso';
import type { AppContext } from '../context';
import {
  createScimGroup,
  createScimUser,
  deleteScimGroup,
  deleteScimUser,
  getScimGroup,
  getScimUser,
  listGroups,
  listUsers,
  patchScimGroup,
  patchScimUser,
  replaceScimGroup,
  replaceScimUser,
  SCIM_ERROR,
  SCIM_MAX_COUNT,
  ScimError,
} from '../domain/scim';
import { companyOfScimToken } from '../domain/sso';
import { HttpError } from '../errors';
import { bearerToken, PUBLIC } from '../http/access';

type Query = { filter?: string; startIndex?: string; count?: string; excludedAttributes?: string };
type Body = Record<string, unknown>;

/**
 * SCIM 2.0 under /scim/v2 (server/domain/scim.ts): the company's identity provider with the company's SCIM token
 * as bearer. Its own wire format (RFC 7644: `application/scim+json`, errors as SCIM Error messages), so outside
 * the studio's OpenAPI document.
 */
export function scimRoutes(ctx: AppContext): FastifyPluginAsync {
  const base = `${ctx.config.publicUrl.replace(/\/+$/, '')}/scim/v2`;
  const companies = new WeakMap<FastifyRequest, number>();
  const companyOf = (request: FastifyRequest) => {
    const id = companies.get(request);
    if (id === undefined) throw new ScimError(401, SSO_DETAILS.scimTokenInvalid);
    return id;
  };
  const scimJson = (reply: FastifyReply, status: number, body: unknown) =>
    reply.code(status).type('application/scim+json; charset=utf-8').send(body);

  return async (app: FastifyInstance) => {
    app.addContentTypeParser(
      'application/scim+json',
      { parseAs: 'string', bodyLimit: 1024 * 1024 },
      (_r, body, done) => {
        try {
          done(null, JSON.parse(body as string));
        } catch {
          done(new ScimError(400, 'The body is not JSON', 'invalidSyntax'), undefined);
        }
      },
    );

    app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
      const status =
        error instanceof ScimError
          ? error.status
          : error instanceof HttpError
            ? error.statusCode
            : (error.statusCode ?? 500) < 500
              ? (error.statusCode ?? 400)
              : 500;
      const detail =
        error instanceof ScimError || error instanceof HttpError || status < 500
          ? error.message
          : 'An error occured';
      if (status >= 500) app.log.error({ err: error }, 'SCIM request failed');
      return scimJson(reply, status, {
        schemas: [SCIM_ERROR],
        status: String(status),
        ...(error instanceof ScimError && error.scimType ? { scimType: error.scimType } : {}),
        detail,
      });
    });

    // Every SCIM request names its company by the token; a wrong or missing one is 401 (and stays out of the log).
    app.addHook('onRequest', async (request, reply) => {
      const token = bearerToken(request);
      const companyId = token ? await companyOfScimToken(ctx.db, token) : null;
      if (companyId === null) {
        reply.header('www-authenticate', 'Bearer realm="scim"');
        throw new ScimError(401, SSO_DETAILS.scimTokenInvalid);
      }
      companies.set(request, companyId);
    });

    const options = { config: { access: PUBLIC }, schema: { hide: true } };

    app.get('/ServiceProviderConfig', options, async (_request, reply) =>
      scimJson(reply, 200, {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
        patch: { supported: true },
        bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
        filter: { supported: true, maxResults: SCIM_MAX_COUNT },
        changePassword: { supported: false },
        sort: { supported: false },
        etag: { supported: false },
        authenticationSchemes: [
          {
            type: 'oauthbearertoken',
            name: 'Bearer token',
            description: 'The company’s SCIM token',
            primary: true,
          },
        ],
      }),
    );

    app.get<{ Querystring: Query }>('/Users', options, async (request, reply) =>
      scimJson(reply, 200, await listUsers(ctx.db, base, companyOf(request), request.query)),
    );
    app.get<{ Params: { id: string } }>('/Users/:id', options, async (request, reply) =>
      scimJson(reply, 200, await getScimUser(ctx.db, base, companyOf(request), request.params.id)),
    );
    app.post<{ Body: Body }>('/Users', options, async (request, reply) =>
      scimJson(reply, 201, await createScimUser(ctx, base, companyOf(request), bodyOf(request.body))),
    );
    app.put<{ Params: { id: string }; Body: Body }>('/Users/:id', options, async (request, reply) =>
      scimJson(
        reply,
        200,
        await replaceScimUser(ctx, base, companyOf(request), request.params.id, bodyOf(request.body)),
      ),
    );
    app.patch<{ Params: { id: string }; Body: Body }>('/Users/:id', options, async (request, reply) =>
      scimJson(
        reply,
        200,
        await patchScimUser(ctx, base, companyOf(request), request.params.id, bodyOf(request.body)),
      ),
    );
    app.delete<{ Params: { id: string } }>('/Users/:id', options, async (request, reply) => {
      await deleteScimUser(ctx, companyOf(request), request.params.id);
      return reply.code(204).send();
    });

    app.get<{ Querystring: Query }>('/Groups', options, async (request, reply) =>
      scimJson(reply, 200, await listGroups(ctx.db, base, companyOf(request), request.query)),
    );
    app.get<{ Params: { id: string } }>('/Groups/:id', options, async (request, reply) =>
      scimJson(reply, 200, await getScimGroup(ctx.db, base, companyOf(request), request.params.id)),
    );
    app.post<{ Body: Body }>('/Groups', options, async (request, reply) =>
      scimJson(reply, 201, await createScimGroup(ctx.db, base, companyOf(request), bodyOf(request.body))),
    );
    app.put<{ Params: { id: string }; Body: Body }>('/Groups/:id', options, async (request, reply) =>
      scimJson(
        reply,
        200,
        await replaceScimGroup(ctx.db, base, companyOf(request), request.params.id, bodyOf(request.body)),
      ),
    );
    app.patch<{ Params: { id: string }; Body: Body }>('/Groups/:id', options, async (request, reply) => {
      const group = await patchScimGroup(
        ctx.db,
        base,
        companyOf(request),
        request.params.id,
        bodyOf(request.body),
      );
      return scimJson(reply, 200, group);
    });
    app.delete<{ Params: { id: string } }>('/Groups/:id', options, async (request, reply) => {
      await deleteScimGroup(ctx.db, companyOf(request), request.params.id);
      return reply.code(204).send();
    });
  };
}

function bodyOf(body: unknown): Body {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new ScimError(400, 'The body must be a JSON object', 'invalidSyntax');
  return body as Body;
}
