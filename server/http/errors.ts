import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { LegalHoldError, recordRefusal } from '../domain/legalHold';
import { DETAILS, HttpError } from '../errors';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
}

/** One readable line per problem: `query.limit: Too big: expected number to be <=200`. */
export function describeValidation(context: string, issues: ValidationIssue[]): string {
  return issues
    .map((issue) => {
      const path = (issue.instancePath ?? '').split('/').filter(Boolean).join('.');
      const where = [context, path].filter(Boolean).join('.');
      return `${where}: ${issue.message ?? 'invalid'}`;
    })
    .join('; ');
}

/** Every error leaves as `{ detail }` (docs/product/errors.md); validation errors are 400, never 500. */
const MALFORMED_MULTIPART = /unexpected end of multipart data|Multipart: Boundary not found/i;

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    // A write refused by a legal hold is audited here, after its transaction rolled back.
    if (error instanceof LegalHoldError)
      return recordRefusal(request.server.ctx.db, error, (failure) =>
        request.log.error({ err: failure }, 'legal hold refusal not audited'),
      ).then(() => {
        reply.code(error.statusCode).send({ detail: error.detail });
      });
    if (error instanceof HttpError)
      return reply.code(error.statusCode).send({ ...error.extra, detail: error.detail });
    if (hasZodFastifySchemaValidationErrors(error)) {
      const context = (error as FastifyError).validationContext ?? 'request';
      return reply.code(400).send({ detail: describeValidation(context, error.validation) });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      return reply.code(500).send({ detail: DETAILS.serverError });
    }
    // A multipart body that ends too early or has no boundary is the client's fault (busboy reports it as a
    // plain error, which would otherwise be a 500).
    if (MALFORMED_MULTIPART.test(error.message))
      return reply
        .code(400)
        .send({ detail: 'The upload was cut off or malformed: send the whole form again' });
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send({ detail: DETAILS.serverError });
    }
    const detail = (error as { detail?: unknown }).detail;
    return reply.code(status).send({ detail: typeof detail === 'string' ? detail : error.message });
  });
}

/**
 * Errors the router raises before a route is chosen (Fastify's `frameworkErrors`): a path parameter longer
 * than `maxParamLength` (414) or a path that is not valid URL encoding (400). Also `{ detail }`.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 400;
  const detail =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A path parameter is too long'
      : error.code === 'FST_ERR_BAD_URL'
        ? 'The address is not valid URL encoding'
        : error.message;
  void reply.code(status).send({ detail });
}
