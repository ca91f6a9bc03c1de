import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context';
import { PUBLIC } from '../http/access';
import { createHttpSummariser } from '../integrations/summariser';
import { accountCodeRoutes } from '../routes/accountCodes';
import { amlRoutes } from '../routes/aml';
import { auditRoutes } from '../routes/audit';
import { bitoolRoutes } from '../routes/bitool';
import { callGuideRoutes } from '../routes/callGuide';
import { callNetworkRoutes } from '../routes/callNetwork';
import { callQualityRoutes } from '../routes/callQuality';
import { callReportRoutes } from '../routes/callReport';
import { callRoutingRoutes } from '../routes/callRouting';
import { callWatchRoutes } from '../routes/callWatch';
import { companyRoutes } from '../routes/companies';
import { devRoutes } from '../routes/dev';
import { documentRoutes } from '../routes/documents';
import { evidenceRoutes } from '../routes/evidence';
import { groupRoutes } from '../routes/groups';
import { identProcedureRoutes } from '../routes/identProcedure';
import { ipAllowListRoutes } from '../routes/ipAllowList';
import { loginRoutes } from '../routes/login';
import { machineCheckRoutes } from '../routes/machineChecks';
import { mailRoutes } from '../routes/mail';
import { noteRoutes } from '../routes/notes';
import { notificationRoutes } from '../routes/notifications';
import { passkeyLoginRoutes, passkeyRoutes } from '../routes/passkeys';
import { paymentRoutes } from '../routes/payments';
import { privacyRoutes } from '../routes/privacy';
import { profileRoutes } from '../routes/profiles';
import { profileWriteRoutes } from '../routes/profileWrites';
import { questionnaireRoutes } from '../routes/questionnaires';
import { referenceRoutes } from '../routes/reference';
import { reviewRoutes } from '../routes/review';
import { reviewMetricsRoutes } from '../routes/reviewMetrics';
import { scimRoutes } from '../routes/scim';
import { sessionRoutes } from '../routes/sessions';
import { signupRoutes } from '../routes/signup';
import { ssoRoutes } from '../routes/sso';
import { storageRoutes } from '../routes/storage';
import { registerStudio } from '../routes/studio';
import { supportRoutes } from '../routes/support';
import { transactionRoutes } from '../routes/transactions';
import { userRoutes } from '../routes/users';
import { videoCallRoutes } from '../routes/videocalls';
import { webhookRoutes } from '../routes/webhooks';

const API_V2 = '/api/v2';

const companyServerRoutes = (ctx: AppContext): FastifyPluginAsyncZod[] => [
  referenceRoutes(ctx),
  accountCodeRoutes(ctx),
  userRoutes(ctx),
  companyRoutes(ctx),
  groupRoutes(ctx),
  auditRoutes(ctx),
  profileRoutes(ctx),
  profileWriteRoutes(ctx, {
    summariser: ctx.config.summariser ? createHttpSummariser(ctx.config.summariser) : undefined,
  }),
  supportRoutes(ctx),
  transactionRoutes(ctx),
  documentRoutes(ctx),
  amlRoutes(ctx),
  noteRoutes(ctx),
  videoCallRoutes(ctx),
  callReportRoutes(ctx),
  bitoolRoutes(ctx),
  questionnaireRoutes(ctx),
  webhookRoutes(ctx),
  ipAllowListRoutes(ctx),
  sessionRoutes(ctx),
  paymentRoutes(ctx),
  signupRoutes(ctx),
  passkeyRoutes(ctx),
  identProcedureRoutes(ctx),
  machineCheckRoutes(ctx),
  callGuideRoutes(ctx),
  evidenceRoutes(ctx),
  privacyRoutes(ctx),
  callQualityRoutes(ctx),
  callRoutingRoutes(ctx),
  callNetworkRoutes(ctx),
  callWatchRoutes(ctx),
  reviewRoutes(ctx),
  notificationRoutes(ctx),
  reviewMetricsRoutes(ctx),
  mailRoutes(ctx),
  ssoRoutes(ctx),
];

/**
 * The API (sign-in under /api/v1, the company server under /api/v2 with its OpenAPI document, the loopback-only
 * /api/dev when enabled), signed storage links and the studio's files. Not encapsulated: the studio's
 * not-found handler answers for the whole server.
 */
export const routesPlugin = fp(async (app) => {
  const { ctx } = app;
  await app.register(loginRoutes(ctx), { prefix: '/api/v1' });
  await app.register(passkeyLoginRoutes(ctx), { prefix: '/api/v1' });
  if (ctx.config.devEndpoints) await app.register(devRoutes(ctx), { prefix: '/api/dev' });
  for (const routes of companyServerRoutes(ctx)) await app.register(routes, { prefix: API_V2 });
  app.get(`${API_V2}/openapi.json`, { config: { access: PUBLIC }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
  // The identity providers' provisioning, with its own token and wire format (server/routes/scim.ts).
  await app.register(scimRoutes(ctx), { prefix: '/scim/v2' });
  await app.register(storageRoutes(ctx));
  await registerStudio(app, ctx);
});
