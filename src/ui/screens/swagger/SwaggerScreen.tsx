import { Button, Callout, H2, Intent, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { apiDocsKeys, getOpenApiDocument } from '../../../services/api/apiDocs';
import { isApiError } from '../../../services/api/http';
import { loadChunk } from '../../../services/chunks';
import { useActiveAccount } from '../../app/useAccounts';
import { usePageTitle } from '../../app/usePageTitle';
import { type ApiDocsTexts, localizeDocument } from './localize';

/** The screen's chunk holds the viewer's styles; swagger-ui itself is a plain script loaded here. */
const Viewer = lazy(async () => {
  const module = await loadChunk(() => import('./SwaggerViewer'));
  await loadChunk(() => module.loadSwaggerBundle());
  return { default: module.SwaggerViewer };
});

/**
 * swagger-documentation (docs/product/screens.md): the server's OpenAPI document in swagger-ui, loaded with this screen's
 * chunk only. "Try it out" sends real requests to the signed-in account's server with its token.
 */
export function SwaggerScreen() {
  const { t, i18n } = useTranslation('modules');
  // Loads the apiDocs namespace with the screen: the summaries in the studio's language.
  useTranslation('apiDocs');
  const { t: ts } = useTranslation('screens');
  const { t: tc } = useTranslation();
  const title = ts('swagger.title');
  usePageTitle(title);
  const account = useActiveAccount();
  const server = account?.server ?? '';
  const document = useQuery({
    queryKey: apiDocsKeys.document(server),
    queryFn: ({ signal }) => getOpenApiDocument({ signal }),
    enabled: !!server,
    staleTime: 5 * 60_000,
  });
  const language = i18n.language;
  const spec = useMemo(
    () =>
      document.data &&
      localizeDocument(
        document.data,
        i18n.getResourceBundle(language, 'apiDocs') as ApiDocsTexts | undefined,
      ),
    [document.data, i18n, language],
  );

  return (
    <section className="studio-page studio-page-wide" aria-labelledby="page-title">
      <H2 id="page-title">{title}</H2>
      <p className="studio-muted">{t('api.intro', { server, email: account?.email ?? '' })}</p>
      {document.isError ? (
        <Callout intent={Intent.DANGER} icon="error" role="alert" title={t('api.failed')}>
          <p>
            {isApiError(document.error) && document.error.detail
              ? document.error.detail
              : tc('messages.error')}
          </p>
          <Button icon="refresh" text={t('api.retry')} onClick={() => document.refetch()} />
        </Callout>
      ) : !spec ? (
        <Spinner size={24} aria-label={t('api.loading')} />
      ) : (
        <Suspense fallback={<Spinner size={24} aria-label={t('api.loading')} />}>
          <Viewer spec={spec} serversLabel={t('api.servers')} />
        </Suspense>
      )}
    </section>
  );
}
