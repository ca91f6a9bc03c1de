import {
  Button,
  Callout,
  FormGroup,
  H4,
  HTMLTable,
  InputGroup,
  Intent,
  NonIdealState,
  Spinner,
} from '@blueprintjs/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../services/api/http';
import {
  downloadProfileExport,
  getAccessLog,
  getErasure,
  privacyKeys,
  requestErasure,
} from '../../../services/api/privacy';
import { ReasonDialog } from '../../components/ReasonDialog';
import { useAccessReadText } from '../../components/useAccessReadText';
import { useFormat } from '../../format';
import { profileQuery } from '../../queries';
import { showError, showSuccess } from '../../toaster';

/** The Admin's actions on a person's data: export everything, erase (with the profile's number typed to confirm). */
export function PrivacyActions({ profileId }: { profileId: number }) {
  const { t } = useTranslation('profile');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState('');
  const exporting = useMutation({
    mutationFn: () => downloadProfileExport(profileId),
    onError: (error) => void showError(isApiError(error) ? error.detail : tc('messages.error')),
  });
  const erasing = useMutation({
    mutationFn: (reason: string) => requestErasure(profileId, reason),
    onSuccess: (answer) => {
      queryClient.setQueryData(privacyKeys.erasure(profileId), answer);
      // The profile, its lists and tabs: what was erased is gone from them.
      void queryClient.invalidateQueries({ queryKey: profileQuery(profileId).queryKey });
      void queryClient.invalidateQueries({ queryKey: ['profile', profileId] });
      void showSuccess(answer.status === 'erased' ? t('privacy.erased') : t('privacy.scheduled'));
    },
    onError: (error) => void showError(isApiError(error) ? error.detail : tc('messages.error')),
  });
  const confirmed = typed.trim() === String(profileId);
  return (
    <>
      <Button
        size="small"
        variant="minimal"
        icon="archive"
        text={t('privacy.export')}
        loading={exporting.isPending}
        onClick={() => exporting.mutate()}
      />
      <Button
        size="small"
        variant="minimal"
        intent={Intent.DANGER}
        icon="trash"
        text={t('privacy.erase')}
        onClick={() => setAsking(true)}
      />
      <ReasonDialog
        isOpen={asking}
        title={t('privacy.eraseTitle')}
        body={t('privacy.eraseBody')}
        label={t('privacy.reason')}
        help={t('privacy.reasonHelp')}
        confirm={t('privacy.confirmErase')}
        cancel={t('privacy.cancel')}
        busy={erasing.isPending}
        onConfirm={async (reason) => {
          if (!confirmed) {
            void showError(t('privacy.typeMismatch', { id: profileId }));
            return false;
          }
          try {
            await erasing.mutateAsync(reason);
            setTyped('');
            return true;
          } catch {
            return false;
          }
        }}
        onClose={() => {
          setTyped('');
          setAsking(false);
        }}
      >
        <FormGroup label={t('privacy.typeLabel', { id: profileId })} labelFor="erase-confirm">
          <InputGroup
            id="erase-confirm"
            value={typed}
            autoComplete="off"
            intent={typed && !confirmed ? Intent.DANGER : Intent.NONE}
            onValueChange={setTyped}
          />
        </FormGroup>
      </ReasonDialog>
    </>
  );
}

/** A scheduled or finished erasure, on the profile: the reason, and what is kept, why and until when. */
export function ErasureBanner({ profileId }: { profileId: number }) {
  const { t } = useTranslation('profile');
  const { dateTime, date } = useFormat();
  const erasure = useQuery({
    queryKey: privacyKeys.erasure(profileId),
    queryFn: ({ signal }) => getErasure(profileId, { signal }),
  });
  const data = erasure.data;
  if (!data || data.status === 'none') return null;
  if (data.status === 'erased')
    return (
      <Callout intent={Intent.WARNING} icon="trash" title={t('privacy.erasedTitle')}>
        {t('privacy.erasedBody', { date: data.completed_at ? dateTime(data.completed_at) : '' })}
      </Callout>
    );
  return (
    <Callout intent={Intent.WARNING} icon="time" title={t('privacy.scheduledTitle')}>
      <p>
        {t('privacy.scheduledBody', {
          date: data.requested_at ? dateTime(data.requested_at) : '',
          reason: data.reason ?? '',
        })}
      </p>
      <ul aria-label={t('privacy.retainedLabel')}>
        {data.retained.map((item) => (
          <li key={`${item.object}-${item.id}`}>
            {t('privacy.retainedItem', {
              what: t(`privacy.objects.${item.object}`, { id: item.id }),
              reason: t(`privacy.reasons.${item.reason}`),
              date: date(item.until),
            })}
          </li>
        ))}
      </ul>
    </Callout>
  );
}

/** "Who viewed this profile": the Admin's tab of the reads of the person's data, newest first. */
export function AccessLogTab({ profileId }: { profileId: number }) {
  const { t } = useTranslation('profile');
  const readText = useAccessReadText();
  const { t: tc } = useTranslation();
  const { dateTime } = useFormat();
  const pages = useInfiniteQuery({
    queryKey: privacyKeys.access(profileId),
    queryFn: ({ pageParam, signal }) => getAccessLog(profileId, pageParam, { signal }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next_before ?? undefined,
  });
  if (pages.isError)
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {isApiError(pages.error) && pages.error.detail ? pages.error.detail : tc('messages.error')}
      </Callout>
    );
  if (!pages.data) return <Spinner size={24} />;
  const reads = pages.data.pages.flatMap((page) => page.results);
  return (
    <section aria-labelledby="access-title">
      <H4 id="access-title">{t('privacy.accessTitle')}</H4>
      {reads.length === 0 ? (
        <NonIdealState icon="eye-open" title={t('privacy.accessEmpty')} />
      ) : (
        <HTMLTable compact striped>
          <thead>
            <tr>
              <th>{t('privacy.columns.when')}</th>
              <th>{t('privacy.columns.who')}</th>
              <th>{t('privacy.columns.what')}</th>
              <th>{t('privacy.columns.object')}</th>
              <th>{t('privacy.columns.address')}</th>
            </tr>
          </thead>
          <tbody>
            {reads.map((read) => (
              <tr key={read.seq}>
                <td>{dateTime(read.created_at)}</td>
                <td>{read.actor_email ?? '-'}</td>
                <td>{readText(read)}</td>
                <td>{`${read.object_type} ${read.object_id}`}</td>
                <td>{read.ip ?? '-'}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {pages.hasNextPage && (
        <Button
          text={t('privacy.more')}
          loading={pages.isFetchingNextPage}
          onClick={() => void pages.fetchNextPage()}
        />
      )}
    </section>
  );
}
