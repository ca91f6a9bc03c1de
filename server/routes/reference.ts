import { asc } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DocumentClass } from '#contract/common';
import { DOCUMENT_CLASSES } from '#contract/common';
import { packageSchema } from '#contract/payments';
import { countrySchema, documentTypeSchema } from '#contract/reference';
import type { AppContext } from '../context';
import { countries, documentTypes, packages } from '../db/schema';
import { PUBLIC, SIGNED_IN } from '../http/access';
import { authErrors } from './shared';

/** Reference data: countries, document types, packages. */
export function referenceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/country',
      {
        config: { access: SIGNED_IN },
        schema: {
          summary: 'Countries',
          tags: ['reference'],
          response: { 200: z.array(countrySchema), ...authErrors },
        },
      },
      async () => {
        const rows = await ctx.db.select().from(countries).orderBy(asc(countries.name));
        return rows.map((c) => ({ code: c.code, name: c.name, name_tr: c.nameTr }));
      },
    );

    app.get(
      '/documenttype',
      {
        config: { access: SIGNED_IN },
        schema: {
          summary: 'Document types',
          tags: ['reference'],
          description:
            'Sorted by document class (ID, DL, SE, PA, VA, UB, IB, SG, CO, OT, XX), then by sort order.',
          response: { 200: z.array(documentTypeSchema), ...authErrors },
        },
      },
      async () => {
        const rows = await ctx.db
          .select()
          .from(documentTypes)
          .orderBy(asc(documentTypes.sortOrder), asc(documentTypes.id));
        const rank = (c: string) => DOCUMENT_CLASSES.indexOf(c as DocumentClass);
        return rows
          .map((t) => ({
            id: t.id,
            name: t.name,
            document_class: t.documentClass as DocumentClass,
            country: t.country,
            sort_order: t.sortOrder,
          }))
          .sort((a, b) => rank(a.document_class) - rank(b.document_class));
      },
    );

    app.get(
      '/stp/packages',
      {
        config: { access: PUBLIC },
        schema: {
          summary: 'Plans (packages) on offer',
          tags: ['payment'],
          response: { 200: z.array(packageSchema) },
        },
      },
      async () => {
        const rows = await ctx.db.select().from(packages).orderBy(asc(packages.sortOrder), asc(packages.id));
        return rows.map((p) => ({
          id: p.id,
          name: p.name,
          description: p.description,
          verifications: p.verifications,
          price: p.priceCents,
          currency: p.currency,
          is_custom: p.isCustom,
          services: p.services ?? null,
          period_days: p.periodDays,
        }));
      },
    );
  };
}
