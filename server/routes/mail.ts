/**
 * The Admin's view of the company's mail: GET /mail, POST /mail/{id}/retry, GET /mail/preview, and
 * GET/PUT /mail/language.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, idParams } from '#contract/common';
import {
  companyMailLanguageSchema,
  MAIL_KINDS,
  mailListQuery,
  mailMessageSchema,
  mailPageSchema,
  mailPreviewQuery,
  mailPreviewSchema,
} from '#contract/mail';
import type { AppContext } from '../context';
import {
  companyMailLanguage,
  listMail,
  previewMail,
  retryMail,
  setCompanyMailLanguage,
} from '../domain/mail';
import { need, principalOf } from '../http/access';
import { toPage } from '../http/paging';
import { authErrors } from './shared';

/** The Admin screen's tabs: Admins with view_admin_page. */
const ADMIN = need('view_admin_page', { admin: true });
const tags = ['mail'];

export function mailRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/mail',
      {
        config: { access: ADMIN },
        schema: {
          summary: 'The company’s e-mail',
          tags,
          description:
            'The messages sent to the company’s users, newest first, with paging and an optional `status` ' +
            '(queued, sent, failed): recipient, subject, attempts, the relay’s answer to the last failed ' +
            'attempt. Never a body, so never a one-time code.',
          querystring: mailListQuery,
          response: { 200: mailPageSchema, ...authErrors },
        },
      },
      async (request) => {
        const { count, results } = await listMail(ctx.db, principalOf(request).companyId, request.query);
        return toPage(request, request.query, count, results);
      },
    );

    app.post(
      '/mail/:id/retry',
      {
        config: { access: ADMIN },
        schema: {
          summary: 'Send a failed e-mail again',
          tags,
          description:
            'Queues a failed message again with a fresh set of attempts. 404 for another company’s message; ' +
            '409 when it has not failed, or when it carried a one-time code that has expired since.',
          params: idParams,
          response: { 200: mailMessageSchema, ...authErrors, 409: errorSchema },
        },
      },
      async (request) => retryMail(ctx.db, principalOf(request).companyId, request.params.id),
    );

    app.get(
      '/mail/preview',
      {
        config: { access: ADMIN },
        schema: {
          summary: 'Preview an e-mail template',
          tags,
          description:
            `One template (\`kind\`: ${MAIL_KINDS.join(', ')}) in \`language\` (en, tr) with sample values, ` +
            'signed with the caller’s company: the subject, the plain-text part and the HTML part.',
          querystring: mailPreviewQuery,
          response: { 200: mailPreviewSchema, ...authErrors },
        },
      },
      async (request) =>
        previewMail(
          ctx.db,
          principalOf(request).companyId,
          ctx.mail.product,
          ctx.config.publicUrl,
          request.query,
        ),
    );

    app.get(
      '/mail/language',
      {
        config: { access: ADMIN },
        schema: {
          summary: 'The company’s e-mail language',
          tags,
          description:
            'The language (en, tr) of the e-mail the company’s users get when they have chosen none of their own ' +
            '(their `mail_language`).',
          response: { 200: companyMailLanguageSchema, ...authErrors },
        },
      },
      async (request) => companyMailLanguage(ctx.db, principalOf(request).companyId),
    );

    app.put(
      '/mail/language',
      {
        config: { access: ADMIN },
        schema: {
          summary: 'Set the company’s e-mail language',
          tags,
          description:
            'Sets the language of the e-mail to users who have chosen none of their own; audited ' +
            '(`mail_language_changed`) when it changes.',
          body: companyMailLanguageSchema,
          response: { 200: companyMailLanguageSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId, id } = principalOf(request);
        return setCompanyMailLanguage(ctx.db, { companyId, userId: id }, request.body);
      },
    );
  };
}
