import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../src/contract/common';
import {
  callQuestionSchema,
  callQuestionsQuerySchema,
  callStatusEntrySchema,
  videoCallListQuerySchema,
  videoCallPageSchema,
} from '../../src/contract/videocalls';
import type { AppContext } from '../context';
import { assertProfile } from '../domain/profiles';
import { callQuestions, callStatusList, listVideoCalls } from '../domain/videocalls';
import { need, principalOf, SIGNED_IN } from '../http/access';
import { toPage } from '../http/paging';
import { authErrors } from './shared';

export function videoCallRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/videocall',
      {
        config: { access: need('view_profiles_page') },
        schema: {
          tags: ['videocalls'],
          description:
            'Newest first; `profile` limits the list to one profile (404 if it is not the company’s).',
          querystring: videoCallListQuerySchema,
          response: { 200: videoCallPageSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId } = principalOf(request);
        if (request.query.profile !== undefined)
          await assertProfile(ctx.db, companyId, request.query.profile);
        const { count, results } = await listVideoCalls(ctx.db, ctx.storage, companyId, request.query);
        return toPage(request, request.query, count, results);
      },
    );

    app.get(
      '/videocall/status_list',
      {
        config: { access: SIGNED_IN },
        schema: {
          tags: ['videocalls'],
          description: 'Call status codes 0..9 with en-US and tr labels.',
          response: { 200: z.array(callStatusEntrySchema), ...authErrors },
        },
      },
      async () => callStatusList(),
    );

    app.get(
      '/videocall/:id/questions',
      {
        config: { access: need('view_calls_page') },
        schema: {
          tags: ['videocalls'],
          params: idParams,
          querystring: callQuestionsQuerySchema,
          response: { 200: z.array(callQuestionSchema), ...authErrors },
        },
      },
      async (request) =>
        callQuestions(ctx.db, principalOf(request).companyId, request.params.id, request.query.lang),
    );
  };
}
