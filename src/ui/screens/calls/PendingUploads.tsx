import { Button, Card, H3, Intent } from '@blueprintjs/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import i18next from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accountKey } from '../../../services/accounts';
import { downloadRecording, type KeptRecording, pendingRecordings } from '../../../services/recordings';
import { type RealtimeDesk, useRealtime } from '../../app/realtime/RealtimeProvider';
import { useActiveAccount } from '../../app/useAccounts';
import { useFormat } from '../../format';
import { showError, showSuccess } from '../../toaster';
import { UploadPanel } from '../call/CallEnd';

const pendingKey = (account: string) => ['recordings', 'pending', account] as const;

/** Recordings kept in this browser whose upload did not finish (a failure, a reload): nothing is lost. */
export function PendingUploads() {
  const { t } = useTranslation('calls');
  const account = useActiveAccount();
  const realtime = useRealtime();
  const key = account ? accountKey(account) : '';
  const pending = useQuery({
    queryKey: pendingKey(key),
    queryFn: () => pendingRecordings(key),
    enabled: key !== '',
  });
  // The call running in this window uploads its own recording.
  const running = useSelector(
    realtime?.desk,
    (s) => s?.context.call?.getSnapshot().context.call.call_id ?? null,
  );
  const rows = (pending.data ?? []).filter((r) => r.callId !== running);
  if (!realtime || rows.length === 0) return null;
  return (
    <Card className="studio-calls-pending">
      <H3>{t('pending.title')}</H3>
      <p className="studio-muted">{t('pending.intro')}</p>
      <ul className="studio-plain-list">
        {rows.map((recording) => (
          <PendingRecording
            key={recording.callId}
            recording={recording}
            uploadMachine={realtime.uploadMachine}
          />
        ))}
      </ul>
    </Card>
  );
}

function PendingRecording({
  recording,
  uploadMachine,
}: {
  recording: KeptRecording;
  uploadMachine: RealtimeDesk['uploadMachine'];
}) {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const date = useFormat().dateTime;
  const [uploading, setUploading] = useState(false);
  return (
    <li>
      <strong>{t('pending.call', { id: recording.callId })}</strong>{' '}
      <span className="studio-muted">
        {t('pending.size', { size: (recording.size / 1048576).toFixed(1), date: date(recording.createdAt) })}
      </span>
      {uploading ? (
        <UploadRun callId={recording.callId} uploadMachine={uploadMachine} />
      ) : (
        <div className="studio-actions">
          <Button
            intent={Intent.PRIMARY}
            icon="upload"
            text={t('pending.upload')}
            onClick={() => setUploading(true)}
          />
          <Button
            icon="download"
            text={tc('messages.downloadFile')}
            onClick={() => {
              if (!downloadRecording(recording)) void showError(tc('messages.downloadDenied'));
            }}
          />
        </div>
      )}
    </li>
  );
}

function UploadRun({
  callId,
  uploadMachine,
}: {
  callId: number;
  uploadMachine: RealtimeDesk['uploadMachine'];
}) {
  const queryClient = useQueryClient();
  const upload = useActorRef(uploadMachine, { input: { callId } });
  const done = useSelector(upload, (s) => s.status === 'done');
  // Once when the upload ends: not again when the language changes (as `t` would, and react-i18next's `i18n`).
  useEffect(() => {
    if (!done) return;
    void showSuccess(i18next.t('success.callStatusUpdated'));
    void queryClient.invalidateQueries({ queryKey: ['recordings', 'pending'] });
  }, [done, queryClient]);
  return <UploadPanel upload={upload} />;
}
