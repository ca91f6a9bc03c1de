import {
  AnchorButton,
  Button,
  Callout,
  FormGroup,
  HTMLTable,
  InputGroup,
  Intent,
  NonIdealState,
  Spinner,
} from '@blueprintjs/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { EVIDENCE_TOO_FAST } from '#contract/rateLimits';
import { downloadEvidence } from '../../../services/api/evidence';
import { isApiError } from '../../../services/api/http';
import { listCalls, stepKeys } from '../../../services/api/profileDetail';
import { createJoinLink } from '../../../services/api/videocalls';
import { useActiveAccount } from '../../app/useAccounts';
import { videoPath } from '../../components/callPaths';
import { useFormat } from '../../format';
import { showError, showSuccess } from '../../toaster';
import { CallWhispers } from './CallWhispers';

/** The profile's video calls and recordings, and the join link a customer opens to call in. */
export function VideoCallsTab({ profileId }: { profileId: number }) {
  const { t } = useTranslation('calls');
  const date = useFormat().dateTime;
  const account = useActiveAccount();
  const calls = useQuery({
    queryKey: stepKeys.calls(profileId),
    queryFn: ({ signal }) => listCalls(profileId, { signal }),
  });
  const canCall = account?.permissions.includes('view_calls_page') ?? false;
  // The signed package is the whole dossier: its own permission, as the server checks it.
  const canDownload = account?.permissions.includes('download_evidence') ?? false;
  return (
    <div className="studio-video-calls">
      {canCall && <JoinLink profileId={profileId} />}
      {calls.isPending && <Spinner />}
      {calls.isError && (
        <Callout intent={Intent.DANGER} title={t('tab.loadFailed')}>
          <Button icon="refresh" text={t('tab.retry')} onClick={() => calls.refetch()} />
        </Callout>
      )}
      {calls.data?.results.length === 0 && <NonIdealState icon="video" description={t('tab.empty')} />}
      {!!calls.data?.results.length && (
        <HTMLTable compact striped className="studio-table">
          <thead>
            <tr>
              <th scope="col">{t('tab.started')}</th>
              <th scope="col">{t('tab.status')}</th>
              <th scope="col">{t('tab.agent')}</th>
              <th scope="col">{t('tab.recording')}</th>
              <th scope="col">{t('tab.sha256')}</th>
              {canCall && <th scope="col">{t('watch.whispers')}</th>}
              {canDownload && <th scope="col">{t('evidence.column')}</th>}
            </tr>
          </thead>
          <tbody>
            {calls.data.results.map((call) => (
              <tr key={call.id}>
                <td>
                  {/* Every call opens its page: its answers and notes, and the recording if it has one. */}
                  <Link href={`~${videoPath(profileId, call.id)}`}>
                    {date(call.call_start_time ?? call.created_at)}
                  </Link>
                </td>
                <td>{t(`statusNames.${call.status}` as 'statusNames.0')}</td>
                <td>{call.agent?.name ?? t('video.noAgent')}</td>
                <td>
                  {call.recorded_file ? (
                    <Link href={`~${videoPath(profileId, call.id)}`} asChild>
                      <AnchorButton role="link" small icon="video" text={t('tab.watch')} />
                    </Link>
                  ) : (
                    <span className="studio-muted">{t('tab.none')}</span>
                  )}
                </td>
                <td>
                  {call.recorded_file && call.recording_sha256 ? (
                    <code title={call.recording_sha256}>{`${call.recording_sha256.slice(0, 12)}…`}</code>
                  ) : (
                    <span className="studio-muted">{t('tab.none')}</span>
                  )}
                </td>
                {canCall && (
                  <td>
                    <CallWhispers callId={call.id} />
                  </td>
                )}
                {canDownload && (
                  <td>
                    {call.recorded_file ? (
                      <EvidenceButton
                        callId={call.id}
                        label={t('evidence.downloadLabel', {
                          date: date(call.call_start_time ?? call.created_at),
                        })}
                      />
                    ) : (
                      <span className="studio-muted">{t('tab.none')}</span>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </div>
  );
}

/** Downloads the call's signed evidence package; the server audits each download and limits how many. */
function EvidenceButton({ callId, label }: { callId: number; label: string }) {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const download = useMutation({
    mutationFn: () => downloadEvidence(callId),
    onSuccess: () => void showSuccess(t('evidence.saved')),
    onError: (error) =>
      void showError(
        t('evidence.failed', {
          detail: !isApiError(error)
            ? tc('messages.error')
            : error.detail === EVIDENCE_TOO_FAST
              ? t('evidence.tooFast')
              : error.detail,
        }),
      ),
  });
  return (
    <Button
      small
      icon="download"
      text={t('evidence.download')}
      aria-label={label}
      loading={download.isPending}
      onClick={() => download.mutate()}
    />
  );
}

function JoinLink({ profileId }: { profileId: number }) {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const date = useFormat().dateTime;
  const link = useMutation({
    mutationFn: () => createJoinLink(profileId),
    onError: (error) => void showError(isApiError(error) ? error.detail : tc('messages.error')),
  });
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      void showSuccess(t('tab.copied'));
    } catch {
      void showError(t('tab.copyFailed'));
    }
  };
  if (!link.data)
    return (
      <Button
        icon="link"
        intent={Intent.PRIMARY}
        text={t('tab.createLink')}
        loading={link.isPending}
        onClick={() => link.mutate()}
      />
    );
  return (
    <FormGroup
      label={t('tab.linkLabel')}
      labelFor="join-link"
      helperText={t('tab.linkHelp', { date: date(link.data.expires_at) })}
    >
      <InputGroup
        id="join-link"
        readOnly
        value={link.data.url}
        onFocus={(event) => event.currentTarget.select()}
        rightElement={
          <Button
            icon="duplicate"
            variant="minimal"
            text={t('tab.copy')}
            onClick={() => void copy(link.data.url)}
          />
        }
      />
    </FormGroup>
  );
}
