import { Button, Callout, H3, Intent, Spinner, Tag } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CallStep } from '#contract/identProcedure';
import { isApiError } from '../../../services/api/http';
import { getCallSteps } from '../../../services/api/identProcedure';

const RESULT_INTENT: Record<CallStep['result'], Intent> = {
  passed: Intent.SUCCESS,
  failed: Intent.DANGER,
  skipped: Intent.NONE,
};

/** m:ss (h:mm:ss past an hour) of a time in the recording. */
export function clock(ms: number): string {
  const total = Math.floor(ms / 1000);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/**
 * The identification steps of a recorded call: a marker per step on a timeline under the
 * player, coloured by its result, and the list of steps; a click on either plays the recording from the step's
 * offset. The list is the keyboard's way (the markers repeat it for the mouse; a step's button is named by what
 * it shows, its title says what a click does). Markers appear once the
 * player knows the recording's duration.
 */
export function RecordingSteps({
  callId,
  video,
  duration,
}: {
  callId: number;
  video: HTMLVideoElement | null;
  /** Seconds, once known (browser recordings learn it late); null before. */
  duration: number | null;
}) {
  const { t } = useTranslation('calls');
  const { t: tp } = useTranslation('procedure');
  const { t: tc } = useTranslation();
  const steps = useQuery({
    queryKey: ['callSteps', callId],
    queryFn: ({ signal }) => getCallSteps(callId, { signal }),
  });
  const jump = (step: CallStep) => {
    if (!video) return;
    video.currentTime = step.offset_ms / 1000;
  };
  const label = (step: CallStep) =>
    t('recordingSteps.jump', {
      time: clock(step.offset_ms),
      kind: tp(`kinds.${step.kind}`),
      result: t(`recordingSteps.results.${step.result}`),
    });

  return (
    <section aria-labelledby="recording-steps-title" className="studio-recording-steps">
      {!!steps.data?.length && duration !== null && duration > 0 && (
        // The markers repeat the list below for the mouse: hidden from assistive technology, out of the tab order.
        <div className="studio-recording-timeline" aria-hidden data-testid="recording-timeline">
          {steps.data.map((step) => (
            <button
              key={step.id}
              type="button"
              tabIndex={-1}
              title={label(step)}
              className={`studio-recording-marker studio-recording-marker-${step.result}`}
              style={{ left: `${Math.min(100, (step.offset_ms / 1000 / duration) * 100)}%` }}
              data-step={step.kind}
              onClick={() => jump(step)}
            />
          ))}
        </div>
      )}
      <H3 id="recording-steps-title">{t('recordingSteps.title')}</H3>
      {steps.isPending && <Spinner size={20} />}
      {steps.isError && (
        <Callout intent={Intent.DANGER}>
          {isApiError(steps.error) ? steps.error.detail : tc('messages.error')}
        </Callout>
      )}
      {steps.data?.length === 0 && <p className="studio-muted">{t('recordingSteps.none')}</p>}
      {!!steps.data?.length && (
        <ol className="studio-recording-step-list">
          {steps.data.map((step) => (
            <li key={step.id}>
              <Button variant="minimal" title={label(step)} onClick={() => jump(step)} disabled={!video}>
                <span className="studio-recording-step">
                  <span className="studio-recording-time">{clock(step.offset_ms)}</span>
                  <span>{tp(`kinds.${step.kind}`)}</span>
                  <Tag minimal round intent={RESULT_INTENT[step.result]}>
                    {t(`recordingSteps.results.${step.result}`)}
                  </Tag>
                </span>
              </Button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
