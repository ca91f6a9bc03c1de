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
import { CALL_STATUS_COMPLETE, FINAL_CALL_STATUSES } from '#contract/constants';
import type { IdentProcedure, StepKind } from '#contract/identProcedure';
import type { callMachine } from '../../../machines/call.machine';
import { type identStepsMachine, mayEnd, missingSteps } from '../../../machines/identSteps.machine';
import { qualitySuggestion, suggestedFirst } from '../../../machines/qualitySuggestion';
import type { recordingUploadMachine } from '../../../machines/recordingUpload.machine';
import { videoPath } from '../../components/callPaths';
import { callLang } from '../../components/useCallEntries';
import { BackToCalls } from './BackToCalls';

type CallRef = ActorRefFrom<typeof callMachine>;

/** A guided procedure: the company's reasons and the steps of the call. */
export interface Guide {
  procedure: IdentProcedure;
  steps: ActorRefFrom<typeof identStepsMachine>;
}

const NO_STEPS: readonly StepKind[] = [];

/** After the call: the status the agent must pick, the recording's upload, and the end. */
export function CallEnd({ call, guide }: { call: CallRef; guide: Guide | null }) {
  const { t, i18n } = useTranslation('calls');
  const { t: tp } = useTranslation('procedure');
  const snapshot = useSelector(call, (s) => s);
  const missing = useSelector(guide?.steps, (s) => (s ? missingSteps(s.context) : NO_STEPS)) ?? NO_STEPS;
  const { status, outcomeReason, error, call: queued, quality, customerQuality } = snapshot.context;
  const upload = snapshot.children.upload as ActorRefFrom<typeof recordingUploadMachine> | undefined;

  if (snapshot.matches('ending') || snapshot.matches('saving')) {
    const saving = snapshot.matches('saving');
    const completeBlocked = guide !== null && missing.length > 0;
    // A poor call offers the matching status and abort reason, and lists that reason first.
    const suggestion = qualitySuggestion(
      quality,
      guide?.procedure.abort_reasons ?? [],
      customerQuality?.summary ?? null,
    );
    const reasons =
      guide && status !== null
        ? status === CALL_STATUS_COMPLETE
          ? guide.procedure.decision_reasons
          : suggestedFirst(guide.procedure.abort_reasons, suggestion)
        : [];
    const lang = callLang(i18n.language) === 'TR' ? 'tr' : 'en';
    const offered =
      suggestion !== null &&
      !(status === suggestion.status && (!guide || outcomeReason === (suggestion.reason?.id ?? null)));
    const ready = mayEnd({ guided: guide !== null, status, reason: outcomeReason, missing });
    return (
      <form
        className="studio-call-end"
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) call.send({ type: 'STATUS.SAVE' });
        }}
      >
        <H3>{t('call.endingTitle')}</H3>
        <p className="studio-muted">{t('call.endingHelp')}</p>
        {suggestion && offered && (
          <Callout intent={Intent.WARNING} icon="warning-sign" className="studio-call-quality-offer">
            <p>
              {guide && suggestion.reason
                ? t('quality.suggest', {
                    issue: t(`quality.issues.${suggestion.issue}`),
                    reason: suggestion.reason[lang],
                    status: t(`statusNames.${suggestion.status}` as 'statusNames.6'),
                  })
                : t('quality.suggestStatus', {
                    issue: t(`quality.issues.${suggestion.issue}`),
                    status: t(`statusNames.${suggestion.status}` as 'statusNames.6'),
                  })}
            </p>
            <Button
              text={t('quality.use')}
              disabled={saving}
              onClick={() => {
                call.send({ type: 'STATUS.PICK', status: suggestion.status });
                if (guide && suggestion.reason)
                  call.send({ type: 'REASON.PICK', reason: suggestion.reason.id });
              }}
            />
          </Callout>
        )}
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
              <Radio
                key={code}
                value={code}
                label={t(`statusNames.${code}` as 'statusNames.3')}
                disabled={code === CALL_STATUS_COMPLETE && completeBlocked}
              />
            ))}
          </RadioGroup>
        </FormGroup>
        {completeBlocked && (
          <Callout intent={Intent.WARNING} icon="warning-sign" className="studio-call-missing">
            {t('guide.missing', {
              complete: t('statusNames.3'),
              steps: missing.map((kind) => tp(`kinds.${kind}`)).join(', '),
            })}
          </Callout>
        )}
        {reasons.length > 0 && (
          <FormGroup
            label={t('guide.reasonLabel')}
            helperText={outcomeReason === null ? t('guide.reasonRequired') : undefined}
          >
            <RadioGroup
              name="call-outcome-reason"
              selectedValue={outcomeReason ?? undefined}
              onChange={(event) => call.send({ type: 'REASON.PICK', reason: event.currentTarget.value })}
              disabled={saving}
            >
              {reasons.map((reason) => (
                <Radio key={reason.id} value={reason.id} label={reason[lang]} />
              ))}
            </RadioGroup>
          </FormGroup>
        )}
        <Button
          type="submit"
          intent={Intent.PRIMARY}
          icon="tick"
          loading={saving}
          disabled={!ready}
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
