import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '#contract/common';
import { deviceDataSchema, documentListQuerySchema, documentSchema } from '#contract/documents';
import {
  profileListQuerySchema,
  profileNviSchema,
  profilePageSchema,
  profileSchema,
} from '#contract/profiles';
import type { AppContext } from '../context';
import { deviceData } from '../db/schema';
import { listDocuments } from '../domain/documents';
import { assertProfile, listProfiles, requireProfile, toProfile } from '../domain/profiles';
import { need, principalOf } from '../http/access';
import { toKeysetPage } from '../http/paging';
import { withEtag } from '../http/versioning';
import { recordRead } from '../plugins/accessLog';
import { authErrors } from './shared';

const access = need('view_profiles_page');

export function profileRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/profile',
      {
        config: { access },
        schema: {
          summary: 'List profiles',
          tags: ['profiles'],
          description:
            'Search matches name, e-mail, id card number or the numeric id. `next`/`previous` carry a ' +
            '`cursor` (keyset paging: a deep page costs what the first one costs); `offset` still works. ' +
            "`count` is exact up to the server's counting cap, an estimate above (`count_is_estimate`).",
          querystring: profileListQuerySchema,
          response: { 200: profilePageSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId } = principalOf(request);
        const page = await listProfiles(
          ctx.db,
          companyId,
          request.query,
          ctx.profileCounts,
          ctx.config.listCountCap,
        );
        return toKeysetPage(request, request.query.limit, page, page.links, page.results);
      },
    );

    app.get(
      '/profile/:id',
      {
        config: { access },
        schema: {
          summary: 'One profile',
          tags: ['profiles'],
          description:
            'The `ETag` header is the profile\'s version (`"<version>"`): send it as If-Match with a write.',
          params: idParams,
          response: { 200: profileSchema, ...authErrors },
        },
      },
      async (request, reply) => {
        const { companyId } = principalOf(request);
        const profile = toProfile(await requireProfile(ctx.db, companyId, request.params.id));
        recordRead(request, {
          kind: 'profile_viewed',
          target: { companyId, profileId: profile.id, objectType: 'profile', objectId: profile.id },
        });
        return withEtag(reply, profile);
      },
    );

    app.get(
      '/profile/:id/nvi',
      {
        config: { access },
        schema: {
          summary: "A profile's government-check data",
          tags: ['profiles'],
          params: idParams,
          response: { 200: profileNviSchema, ...authErrors },
        },
      },
      async (request) => {
        const row = await requireProfile(ctx.db, principalOf(request).companyId, request.params.id);
        return { id: row.id, extra_data: row.extraData };
      },
    );

    app.get(
      '/profile/:id/documents',
      {
        config: { access },
        schema: {
          summary: "A profile's documents",
          tags: ['documents'],
          params: idParams,
          querystring: documentListQuerySchema,
          response: { 200: z.array(documentSchema), ...authErrors },
        },
      },
      async (request) => {
        const { companyId } = principalOf(request);
        const list = await listDocuments(ctx.db, ctx.storage, companyId, request.params.id, request.query);
        // Documents are only read within the company; an empty list still needs the profile to exist.
        if (list.length === 0) await assertProfile(ctx.db, companyId, request.params.id);
        return list;
      },
    );

    app.get(
      '/profile/:id/device_data',
      {
        config: { access },
        schema: {
          summary: "A profile's device data",
          tags: ['profiles'],
          description: 'Device data of the profile sidebar, newest first.',
          params: idParams,
          response: {
            200: z.array(deviceDataSchema.extend({ id: z.number().int(), created_at: z.string() })),
            ...authErrors,
          },
        },
      },
      async (request) => {
        await assertProfile(ctx.db, principalOf(request).companyId, request.params.id);
        const rows = await ctx.db
          .select()
          .from(deviceData)
          .where(eq(deviceData.profileId, request.params.id))
          .orderBy(desc(deviceData.createdAt), desc(deviceData.id));
        return rows.map((d) => ({
          id: d.id,
          brand: d.brand,
          model: d.model,
          carrier: d.carrier,
          os: d.os,
          osVersion: d.osVersion,
          sdkVersion: d.sdkVersion,
          browser: d.browser,
          useragent: d.useragent,
          created_at: d.createdAt.toISOString(),
        }));
      },
    );
  };
}
