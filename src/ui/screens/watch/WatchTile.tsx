import {
  Button,
  Callout,
  Card,
  FormGroup,
  H3,
  InputGroup,
  Intent,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CallQuality } from '#contract/callQuality';
import { callIssues } from '#contract/callQualityRules';
import type { WatchEnded, Whisper } from '#contract/callWatch';
import type { CallStep } from '#contract/identProcedure';
import {
  callWatchKeys,
  getCallQuality,
  getWhispers,
  sendWhisper,
  startWatch,
  stopWatch,
} from '../../../services/api/callWatch';
import { isApiError } from '../../../services/api/http';
import { getCallSteps } from '../../../services/api/identProcedure';
import type { WatchedStreams } from '../../../services/watchMedia';
import { StreamVideo } from '../../../shared/StreamVideo';
import type { RealtimeDesk } from '../../app/realtime/RealtimeProvider';
import { useWaited } from '../../components/useWaited';

const WHISPER_MAX = 500;

/** What the wall shows of a step: the event leaves out the details (what the customer typed). */
type WatchedStep = Pick<CallStep, 'id' | 'kind' | 'result' | 'offset_ms' | 'created_at'>;
type WatchedQuality = Pick<CallQuality, 'agent' | 'customer'>;

const stepsKey = (callId: number) => ['videocall', callId, 'steps', 'watch'] as const;
const qualityKey = (callId: number) => ['videocall', callId, 'quality', 'watch'] as const;

/** Steps in the order of the recording, each once (an event may cross the read that follows a reconnect). */
const withStep = (list: WatchedStep[] = [], step: WatchedStep) =>
  list.some((s) => s.id === step.id)
    ? list
    : [...list, step].sort((a, b) => a.offset_ms - b.offset_ms || a.id - b.id);

/**
 * One watched call: both videos (received only), what the agent sees of the call (profile, steps, quality,
 * elapsed time) and a whisper box. `large`: the call fills the wall.
 */
export function WatchTile({
  callId,
  realtime,
  large,
  onOpen,
  onClose,
}: {
  callId: number;
  realtime: RealtimeDesk;
  large: boolean;
  onOpen(): void;
  onClose(): void;
}) {
  const { t } = useTranslation('calls');
  const { t: tp } = useTranslation('procedure');
  const queryClient = useQueryClient();
  const channel = realtime.realtime.callWatch;
  const watchedMedia = realtime.realtime.watchedMedia;
  // The grant: a reload takes up the open watch, with fresh credentials for this call only.
  const grant = useQuery({
    queryKey: ['videocall', callId, 'watch'],
    queryFn: ({ signal }) => startWatch(callId, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const [ended, setEnded] = useState<WatchEnded | null>(null);
  const [streams, setStreams] = useState<WatchedStreams>({});
  const [heard, setHeard] = useState(false);
  /** The channel was joined once: steps and quality are read then, and again after every reconnect. */
  const [joined, setJoined] = useState(false);
  const live = grant.isSuccess && !ended;
  const whispers = useQuery({
    queryKey: callWatchKeys.whispers(callId),
    queryFn: ({ signal }) => getWhispers(callId, { signal }),
    enabled: grant.isSuccess,
  });
  // Pushed while the channel is joined (`watch.step`, `watch.quality`); read only when it is (re)joined.
  const steps = useQuery<WatchedStep[]>({
    queryKey: stepsKey(callId),
    queryFn: ({ signal }) => getCallSteps(callId, { signal }),
    enabled: joined,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const quality = useQuery<WatchedQuality>({
    queryKey: qualityKey(callId),
    queryFn: ({ signal }) => getCallQuality(callId, { signal }),
    enabled: joined,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const ice = grant.data?.ice;
  useEffect(() => {
    if (!ice) return;
    // The media outlives this view: a wall that remounts (a call added from Calls) keeps playing.
    const media = watchedMedia.attach(callId, ice, setStreams);
    const leave = channel.join(callId, media.receiver);
    const unsubscribe = channel.subscribe((event) => {
      if (event.type === 'WHISPER' && event.whisper.call_id === callId)
        queryClient.setQueryData<Whisper[]>(callWatchKeys.whispers(callId), (list = []) =>
          list.some((w) => w.id === event.whisper.id) ? list : [...list, event.whisper],
        );
      if (event.type === 'WHISPER' || event.call_id !== callId) return;
      if (event.type === 'ENDED') setEnded(event);
      else if (event.type === 'JOINED') {
        setJoined(true);
        void queryClient.invalidateQueries({ queryKey: stepsKey(callId) });
        void queryClient.invalidateQueries({ queryKey: qualityKey(callId) });
      } else if (event.type === 'STEP')
        queryClient.setQueryData<WatchedStep[]>(stepsKey(callId), (list) => withStep(list, event.step));
      else if (event.type === 'QUALITY')
        queryClient.setQueryData<WatchedQuality>(qualityKey(callId), {
          agent: event.agent,
          customer: event.customer,
        });
    });
    return () => {
      unsubscribe();
      media.detach();
      leave();
    };
  }, [ice, callId, channel, watchedMedia, queryClient]);

  const stop = useMutation({
    mutationFn: () => stopWatch(callId),
    onSettled: () => onClose(),
  });
  const elapsed = useWaited(grant.data?.call_start_time ?? null);

  if (grant.isPending)
    return (
      <Card className="studio-watch-tile" aria-busy>
        <Spinner size={24} aria-label={t('watch.loading')} />
      </Card>
    );
  if (grant.isError)
    return (
      <Card className="studio-watch-tile">
        <Callout intent={Intent.WARNING} role="alert">
          {t('watch.refused', { detail: isApiError(grant.error) ? grant.error.detail : grant.error.message })}
        </Callout>
        <Button icon="cross" text={t('watch.remove')} onClick={onClose} />
      </Card>
    );

  const facts = grant.data;
  const agentName = facts.agent?.name ?? '';
  const latest: WatchedStep | undefined = steps.data?.at(-1);
  const issues = callIssues(quality.data?.agent, quality.data?.customer);
  const measured = quality.data?.agent || quality.data?.customer;
  const stepName = (kind: string) => tp(`kinds.${kind}` as never);

  return (
    <Card
      className={`studio-watch-tile${large ? ' studio-watch-large' : ''}`}
      data-testid={`watch-tile-${callId}`}
      aria-labelledby={`watch-title-${callId}`}
    >
      <header className="studio-watch-header">
        <H3 id={`watch-title-${callId}`}>{t('watch.agent', { name: agentName })}</H3>
        <Tag minimal round>
          {t('watch.elapsed', { time: elapsed })}
        </Tag>
        <Tag
          round
          intent={!measured ? Intent.NONE : issues.length ? Intent.WARNING : Intent.SUCCESS}
          data-testid="watch-quality"
        >
          {!measured
            ? t('watch.badge.unknown')
            : issues.length
              ? t('watch.badge.poor', { issues: issues.map((i) => t(`watch.issues.${i}`)).join(', ') })
              : t('watch.badge.good')}
        </Tag>
        <span className="studio-watch-step">
          {latest ? t('watch.step', { name: stepName(latest.kind) }) : t('watch.noStep')}
        </span>
      </header>
      {ended && (
        <Callout intent={Intent.PRIMARY} icon="phone" role="status" data-testid="watch-ended">
          {ended.reason === 'call_ended'
            ? ended.status >= 3
              ? t('watch.ended', { status: t(`statusNames.${ended.status}` as never) })
              : t('watch.endedNoStatus')
            : t(`watch.endReason.${ended.reason}`)}
        </Callout>
      )}
      <div className="studio-watch-videos">
        {(['customer', 'agent'] as const).map((side) => (
          <figure key={side} className="studio-watch-video">
            <StreamVideo
              stream={streams[side] ?? null}
              muted={!heard}
              label={side === 'agent' ? t('watch.agentVideo') : t('watch.customerVideo')}
            />
            <figcaption>
              {side === 'agent' ? t('watch.agentVideo') : t('watch.customerVideo')}
              {!streams[side] && !ended ? ` · ${t('watch.waitingVideo')}` : ''}
            </figcaption>
          </figure>
        ))}
      </div>
      <div className="studio-actions">
        <Button
          icon={heard ? 'volume-off' : 'volume-up'}
          text={heard ? t('watch.mute') : t('watch.listen')}
          onClick={() => setHeard((on) => !on)}
        />
        <Button
          icon={large ? 'grid-view' : 'maximize'}
          text={large ? t('watch.backToWall') : t('watch.openLarge')}
          onClick={onOpen}
        />
        {ended ? (
          <Button icon="cross" text={t('watch.remove')} onClick={onClose} />
        ) : (
          <Button
            icon="eye-off"
            text={t('watch.stop')}
            loading={stop.isPending}
            onClick={() => stop.mutate()}
          />
        )}
      </div>
      {large && (
        <div className="studio-watch-details">
          <section aria-label={t('watch.steps')}>
            <p>{t('watch.profile', { name: facts.profile_name ?? String(facts.profile) })}</p>
            <h4>{t('watch.steps')}</h4>
            {steps.data && steps.data.length > 0 ? (
              <ul className="studio-watch-steps">
                {steps.data.map((step) => (
                  <li key={step.id}>
                    {stepName(step.kind)}{' '}
                    <Tag
                      minimal
                      intent={
                        step.result === 'passed'
                          ? Intent.SUCCESS
                          : step.result === 'failed'
                            ? Intent.DANGER
                            : Intent.NONE
                      }
                    >
                      {t(`recordingSteps.results.${step.result}`)}
                    </Tag>
                  </li>
                ))}
              </ul>
            ) : (
              <p>{t('watch.noStep')}</p>
            )}
            <h4>{t('watch.quality')}</h4>
            <ul>
              {(['agent', 'customer'] as const).map((side) => {
                const summary = quality.data?.[side];
                return (
                  <li key={side}>
                    {t(`watch.qualitySide.${side}`)}:{' '}
                    {!summary
                      ? t('watch.badge.unknown')
                      : summary.issues.length
                        ? t('watch.badge.poor', {
                            issues: summary.issues.map((i) => t(`watch.issues.${i}`)).join(', '),
                          })
                        : t('watch.badge.good')}
                  </li>
                );
              })}
            </ul>
          </section>
          <WhisperBox callId={callId} whispers={whispers.data ?? []} disabled={!live} />
        </div>
      )}
      {!large && !ended && (
        <WhisperBox callId={callId} whispers={whispers.data ?? []} disabled={!live} compact />
      )}
    </Card>
  );
}

function WhisperBox({
  callId,
  whispers,
  disabled,
  compact = false,
}: {
  callId: number;
  whispers: Whisper[];
  disabled: boolean;
  compact?: boolean;
}) {
  const { t } = useTranslation('calls');
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const send = useMutation({
    mutationFn: (line: string) => sendWhisper(callId, line),
    onSuccess: (whisper) => {
      setText('');
      queryClient.setQueryData<Whisper[]>(callWatchKeys.whispers(callId), (list = []) =>
        list.some((w) => w.id === whisper.id) ? list : [...list, whisper],
      );
    },
  });
  const inputId = `whisper-${callId}`;
  const submit = () => {
    const line = text.trim();
    if (line && !disabled) send.mutate(line);
  };
  return (
    <section className="studio-watch-whispers" aria-label={t('watch.whispers')}>
      {!compact &&
        (whispers.length === 0 ? (
          <NonIdealState description={t('watch.noWhispers')} />
        ) : (
          <ul>
            {whispers.map((whisper) => (
              <li key={whisper.id}>{whisper.text}</li>
            ))}
          </ul>
        ))}
      <FormGroup label={t('watch.whisper')} labelFor={inputId} helperText={t('watch.whisperHelp')}>
        <form
          className="studio-watch-whisper-form"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <InputGroup
            id={inputId}
            value={text}
            maxLength={WHISPER_MAX}
            disabled={disabled}
            onValueChange={setText}
          />
          <Button
            type="submit"
            icon="send-message"
            text={t('watch.whisperSend')}
            loading={send.isPending}
            disabled={disabled}
          />
        </form>
      </FormGroup>
      {send.isError && (
        <Callout intent={Intent.DANGER} role="alert">
          {t('watch.whisperFailed', {
            detail: isApiError(send.error) ? send.error.detail : send.error.message,
          })}
        </Callout>
      )}
    </section>
  );
}
