import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '#contract/common';
import { machineCheckSchema } from '#contract/machineChecks';
import type { AppContext } from '../context';
import { callChecks } from '../domain/machineChecks/checks';
import { CALL_EVIDENCE, principalOf } from '../http/access';
import { authErrors } from './shared';

/** The machine checks of a call's screenshots (`server/domain/machineChecks/checks.ts`). */
export function machineCheckRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/videocall/:id/checks',
      {
        config: { access: CALL_EVIDENCE },
        schema: {
          summary: "Machine checks of a call's screenshots",
          tags: ['videocalls'],
          description:
            'Every face match (face screenshot against the ID front’s portrait) and MRZ read (ID back or passport ' +
            'page: fields, check digits, expiry, cross-checks with the profile) run in the call, in the order ' +
            'they ended, each with its engine and version. Hints for the agent and the reviewer, never a ' +
            'decision. The agent hears each as it ends (`call.check_done`). 404 for a call of another company.',
          params: idParams,
          response: { 200: z.array(machineCheckSchema), ...authErrors },
        },
      },
      async (request) => callChecks(ctx.db, principalOf(request).companyId, request.params.id),
    );
  };
}
