import fastifyCors from '@fastify/cors';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import { MAX_RECORDING_BYTES } from '#contract/constants';
import { installAuditContext } from '../domain/audit';
import { installAccessControl } from '../http/access';
import { corsOriginCheck } from '../http/cors';
import { installErrorHandling } from '../http/errors';
import { openapiTransform } from '../http/openapi';
import { installOperations } from '../http/operations';
import { installPaymentGate } from '../http/paymentGate';
import { installSecurityHeaders } from '../http/securityHeaders';

/**
 * What every request goes through, installed before the routes: security headers, the `{ detail }` error shape,
 * access control of `/api/`, the audit context, the payment gate, health and metrics, CORS, multipart bodies
 * (the largest file is a call's recording) and the OpenAPI document built from the routes' schemas.
 */
export const httpPlugin = fp(async (app) => {
  const { ctx, ops, cluster } = app;
  await installSecurityHeaders(app, ctx.config);
  installErrorHandling(app);
  installAccessControl(app, ctx, ['/api/']);
  installAuditContext(app);
  installPaymentGate(app, ctx);
  installOperations(app, ctx, ops, { redis: cluster?.redis });

  const isAllowedOrigin = corsOriginCheck(ctx.config);
  await app.register(fastifyCors, {
    origin: (origin, done) => done(null, isAllowedOrigin(origin)),
    // traceparent/tracestate: the studio's requests start a trace the server's spans join.
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'Accept',
      'Accept-Language',
      'X-Password',
      'If-Match',
      'traceparent',
      'tracestate',
    ],
    exposedHeaders: ['ETag'],
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    maxAge: 600,
  });
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_RECORDING_BYTES, files: 10 } });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'IDV Studio reference server', version: '2.0.0' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform: openapiTransform,
  });
});
