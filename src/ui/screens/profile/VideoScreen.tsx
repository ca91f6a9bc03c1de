import {
  Button,
  Callout,
  DialogBody,
  DialogFooter,
  H2,
  H3,
  HTMLTable,
  Intent,
  NonIdealState,
  Spinner,
} from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';
import { isApiError } from '../../../services/api/http';
import { listCalls, stepKeys } from '../../../services/api/profileDetail';
import { deleteRecording } from '../../../services/api/videocalls';
import { useActiveAccount } from '../../app/useAccounts';
import { usePageTitle } from '../../app/usePageTitle';
import { Dialog } from '../../components/Dialog';
import { CallChecks } from '../../components/MachineHints';
import { useCallEntries } from '../../components/useCallEntries';
import { useFormat } from '../../format';
import { showError, showSuccess } from '../../toaster';
import { RecordingSteps } from './RecordingSteps';
import '../call/call.css';
import './presence.css';

/**
 * Browser recordings carry no duration (browser-tests note, pitfall 4): seeking far past the end makes the
 * browser find it, after which the player can seek.
 */
function findDuration(video: HTMLVideoElement) {
  if (video.duration !== Number.POSITIVE_INFINITY) return;
  const back = () => {
    video.removeEventListener('durationchange', back);
    video.currentTime = 0;
  };
  video.addEventListener('durationchange', back);
  video.currentTime = Number.MAX_SAFE_INTEGER;
}

/** profile/:profileID/video/:videoID (docs/product/screens.md): a recorded call, played back, with delete. */
export function VideoScreen() {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const { t: ts } = useTranslation('screens');
  const { profileID, videoID } = useParams<{ profileID: string; videoID: string }>();
  const profileId = Number(profileID);
  const callId = Number(videoID);
  const [, navigate] = useLocation();
  const date = useFormat().dateTime;
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  // The player and the recording's duration once known, for the steps' markers.
  const [player, setPlayer] = useState<HTMLVideoElement | null>(null);
  const [duration, setDuration] = useState<number | null>(null);
  // Read from the element itself, also when it knew the duration before this screen listened.
  useEffect(() => {
    if (!player) return;
    const read = () =>
      setDuration(Number.isFinite(player.duration) && player.duration > 0 ? player.duration : null);
    read();
    player.addEventListener('durationchange', read);
    player.addEventListener('loadedmetadata', read);
    return () => {
      player.removeEventListener('durationchange', read);
      player.removeEventListener('loadedmetadata', read);
    };
  }, [player]);
  usePageTitle(ts('video.title'));
  const calls = useQuery({
    queryKey: stepKeys.calls(profileId),
    queryFn: ({ signal }) => listCalls(profileId, { signal }),
  });
  const remove = useMutation({
    mutationFn: () => deleteRecording(callId),
    onSuccess: async () => {
      void showSuccess(tc('success.videoDeleted'));
      await queryClient.invalidateQueries({ queryKey: stepKeys.calls(profileId) });
      navigate(`~/profile/${profileId}?tab=videoCalls`);
    },
    onError: (error) => {
      setConfirming(false);
      void showError(isApiError(error) ? error.detail : tc('messages.error'));
    },
  });
  const call = calls.data?.results.find((c) => c.id === callId);
  const canSeeSteps = useActiveAccount()?.permissions.includes('view_calls_page') ?? false;

  return (
    <section aria-labelledby="page-title" className="studio-video">
      <H2 id="page-title">{ts('video.title')}</H2>
      {calls.isPending && <Spinner />}
      {calls.isError && (
        <Callout intent={Intent.DANGER}>
          {isApiError(calls.error) ? calls.error.detail : tc('messages.error')}
        </Callout>
      )}
      {calls.isSuccess && !call && <NonIdealState icon="video" description={t('video.notFound')} />}
      {call && (
        <>
          {call.recorded_file ? (
            // biome-ignore lint/a11y/useMediaCaption: recordings of live calls have no captions.
            <video
              className="studio-video-player"
              src={call.recorded_file}
              controls
              preload="metadata"
              aria-label={t('video.player', { id: call.id })}
              ref={setPlayer}
              onLoadedMetadata={(event) => findDuration(event.currentTarget)}
            />
          ) : (
            <NonIdealState icon="video" description={t('video.noRecording')} />
          )}
          {/* Step results hold what the customer typed: shown to those who may see the calls' evidence. */}
          {call.recorded_file && canSeeSteps && (
            <RecordingSteps callId={call.id} video={player} duration={duration} />
          )}
          {canSeeSteps && <CallChecks callId={call.id} />}
          <HTMLTable compact className="studio-call-facts">
            <tbody>
              <tr>
                <th scope="row">{t('video.status')}</th>
                <td>{t(`statusNames.${call.status}` as 'statusNames.0')}</td>
              </tr>
              <tr>
                <th scope="row">{t('video.agent')}</th>
                <td>{call.agent?.name ?? t('video.noAgent')}</td>
              </tr>
              <tr>
                <th scope="row">{t('video.started')}</th>
                <td>{call.call_start_time ? date(call.call_start_time) : t('tab.none')}</td>
              </tr>
              <tr>
                <th scope="row">{t('video.ended')}</th>
                <td>{call.call_end_time ? date(call.call_end_time) : t('tab.none')}</td>
              </tr>
              {call.recorded_file && (
                <tr>
                  <th scope="row">{t('video.sha256')}</th>
                  <td>
                    <code className="studio-hash">{call.recording_sha256 ?? t('video.noHash')}</code>
                  </td>
                </tr>
              )}
            </tbody>
          </HTMLTable>
          <CallEntries callId={call.id} />
          {call.recorded_file && (
            <Button
              intent={Intent.DANGER}
              icon="trash"
              text={t('video.delete')}
              onClick={() => setConfirming(true)}
            />
          )}
        </>
      )}
      <Dialog isOpen={confirming} onClose={() => setConfirming(false)} title={t('video.deleteTitle')}>
        <DialogBody>
          <p>{t('video.deleteConfirm')}</p>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('video.cancel')} onClick={() => setConfirming(false)} />
              <Button
                intent={Intent.DANGER}
                icon="trash"
                text={t('video.delete')}
                loading={remove.isPending}
                onClick={() => remove.mutate()}
              />
            </>
          }
        />
      </Dialog>
    </section>
  );
}

/** What was saved during the call: the answers to the call questions and the notes, oldest first. */
function CallEntries({ callId }: { callId: number }) {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const entries = useCallEntries(callId);
  return (
    <section aria-labelledby="call-entries-title" className="studio-video-entries">
      <H3 id="call-entries-title">{t('video.entries')}</H3>
      {entries.isPending && <Spinner size={20} />}
      {entries.isError && <Callout intent={Intent.DANGER}>{tc('messages.error')}</Callout>}
      {entries.data?.length === 0 && <p className="studio-muted">{t('video.noEntries')}</p>}
      {!!entries.data?.length && (
        <dl className="studio-call-answers">
          {entries.data.map((entry) => (
            <div key={entry.id}>
              <dt>{entry.note === null ? entry.question_text : (entry.question_text ?? t('video.note'))}</dt>
              <dd>{entry.note ?? entry.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
