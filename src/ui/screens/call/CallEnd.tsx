import {
  AnchorButton,
  Button,
  Callout,
  FormGroup,
  H3,
  Intent,
  ProgressBar,
  Radio,
  RadioGroup,
} from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { FINAL_CALL_STATUSES } from '#contract/constants';
import type { callMachine } from '../../../machines/call.machine';
import type { recordingUploadMachine } from '../../../machines/recordingUpload.machine';
import { videoPath } from '../../components/callPaths';
import { BackToCalls } from './BackToCalls';

type CallRef = ActorRefFrom<typeof callMachine>;

/** After the call: the status the agent must pick, the recording's upload, and the end. */
export function CallEnd({ call }: { call: CallRef }) {
  const { t } = useTranslation('calls');
  const snapshot = useSelector(call, (s) => s);
  const { status, error, call: queued } = snapshot.context;
  const upload = snapshot.children.upload as ActorRefFrom<typeof recordingUploadMachine> | undefined;

  if (snapshot.matches('ending') || snapshot.matches('saving')) {
    const saving = snapshot.matches('saving');
    return (
      <form
        className="studio-call-end"
        onSubmit={(event) => {
          event.preventDefault();
          call.send({ type: 'STATUS.SAVE' });
        }}
      >
        <H3>{t('call.endingTitle')}</H3>
        <p className="studio-muted">{t('call.endingHelp')}</p>
        <FormGroup
          label={t('call.statusLabel')}
          intent={error ? Intent.DANGER : Intent.NONE}
          helperText={error ?? (status === null ? t('call.statusRequired') : undefined)}
        >
          <RadioGroup
            name="call-status"
            selectedValue={status ?? undefined}
            onChange={(event) =>
              call.send({ type: 'STATUS.PICK', status: Number(event.currentTarget.value) })
            }
            disabled={saving}
          >
            {FINAL_CALL_STATUSES.map((code) => (
              <Radio key={code} value={code} label={t(`statusNames.${code}` as 'statusNames.3')} />
            ))}
          </RadioGroup>
        </FormGroup>
        <Button
          type="submit"
          intent={Intent.PRIMARY}
          icon="tick"
          loading={saving}
          disabled={status === null}
          text={t('call.save')}
        />
      </form>
    );
  }
  if (snapshot.matches('uploading') && upload) return <UploadPanel upload={upload} />;
  if (snapshot.matches('done'))
    return (
      <Callout intent={Intent.SUCCESS} icon="tick-circle" title={t('call.doneTitle')}>
        <p>{t('call.doneBody')}</p>
        <div className="studio-actions">
          <Link href={`~${videoPath(queued.profile, queued.call_id)}`} asChild>
            <AnchorButton role="link" icon="video" text={t('call.openVideo')} />
          </Link>
          <Link href={`~/profile/${queued.profile}`} asChild>
            <AnchorButton role="link" icon="person" text={t('call.openProfile')} />
          </Link>
          <BackToCalls />
        </div>
      </Callout>
    );
  return null;
}

/** The recording's upload with its progress; on failure Video Upload Error with Try Again and Download File. */
export function UploadPanel({ upload }: { upload: ActorRefFrom<typeof recordingUploadMachine> }) {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const snapshot = useSelector(upload, (s) => s);
  const percent = Math.round(snapshot.context.progress * 100);
  if (snapshot.matches('failed'))
    return (
      <Callout intent={Intent.DANGER} icon="error" title={tc('messages.videoUploadError')} role="alert">
        {snapshot.context.error && snapshot.context.error !== tc('messages.videoUploadError') && (
          <p>{snapshot.context.error}</p>
        )}
        <p>{t('call.uploadKept')}</p>
        <div className="studio-actions">
          <Button
            intent={Intent.PRIMARY}
            icon="refresh"
            text={tc('messages.tryAgain')}
            onClick={() => upload.send({ type: 'RETRY' })}
          />
          <Button
            icon="download"
            text={tc('messages.downloadFile')}
            onClick={() => upload.send({ type: 'DOWNLOAD' })}
          />
        </div>
      </Callout>
    );
  return (
    <div className="studio-call-upload" role="status">
      <H3>{t('call.uploadingTitle')}</H3>
      <ProgressBar
        value={snapshot.context.progress}
        intent={Intent.PRIMARY}
        aria-label={t('call.uploadingTitle')}
      />
      <p className="studio-muted">{t('call.uploadProgress', { percent })}</p>
    </div>
  );
}
