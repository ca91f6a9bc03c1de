import { Button, Callout, H2, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ActorRefFrom, fromPromise } from 'xstate';
import { type IdentProcedure, MAX_STEP_OFFSET_MS, type StepKind } from '#contract/identProcedure';
import type { callMachine } from '../../../machines/call.machine';
import {
  drawQuestions,
  identStepsMachine,
  latestResults,
  missingSteps,
  NO_VIDEO,
  pendingShots,
} from '../../../machines/identSteps.machine';
import {
  addCallScreenshot,
  addCallStep,
  getCallScreenshots,
  getCallSteps,
  getIdentProcedure,
  identProcedureKeys,
  showCallStep,
} from '../../../services/api/identProcedure';
import { recordingStarts } from '../../../services/callStreams';
import { StreamVideo } from '../../../shared/StreamVideo';
import { frameOf } from '../../../shared/videoFrame';
import { useRealtime } from '../../app/realtime/RealtimeProvider';
import { useActiveAccount } from '../../app/useAccounts';
import { useWaited } from '../../components/useWaited';
import { BackToCalls } from './BackToCalls';
import { CallEnd, type Guide } from './CallEnd';
import { CallQuality } from './CallQuality';
import { CallSidebar } from './CallSidebar';
import { ReconnectingBanner } from './ReconnectingBanner';
import type { StepsRef } from './StepsPanel';
import { useCallStreams } from './useCall';
import { CallWatchers } from './Watchers';
import './call.css';

type CallRef = ActorRefFrom<typeof callMachine>;

/**
 * The live call. On a guided procedure the steps run in an identSteps actor shared by the sidebar's
 * steps panel and the end screen.
 */
export function CallView({ call }: { call: CallRef }) {
  const account = useActiveAccount();
  const procedure = useQuery({
    queryKey: [...identProcedureKeys.current(), account?.server ?? '', account?.company_id ?? 0],
    queryFn: ({ signal }) => getIdentProcedure({ signal }),
  });
  const remoteVideo = useRef<HTMLVideoElement | null>(null);
  if (procedure.data?.guided)
    return <GuidedCallView call={call} procedure={procedure.data} remoteVideo={remoteVideo} />;
  return <CallLayout call={call} guide={null} remoteVideo={remoteVideo} />;
}

type VideoRef = RefObject<HTMLVideoElement | null>;

function GuidedCallView({
  call,
  procedure,
  remoteVideo,
}: {
  call: CallRef;
  procedure: IdentProcedure;
  remoteVideo: VideoRef;
}) {
  const callId = useSelector(call, (s) => s.context.call.call_id);
  const [drawn] = useState(() => {
    const questions = procedure.steps.find((s) => s.kind === 'questions');
    return questions ? drawQuestions(questions.pool, questions.count, Math.random) : [];
  });
  const steps = useActorRef(
    identStepsMachine.provide({
      actors: {
        load: fromPromise(async ({ signal }) => {
          const [recorded, screenshots] = await Promise.all([
            getCallSteps(callId, { signal }),
            getCallScreenshots(callId, { signal }),
          ]);
          return { results: latestResults(recorded), shots: pendingShots(recorded, screenshots) };
        }),
        shoot: fromPromise(async ({ input }) => {
          const frame = await frameOf(() => remoteVideo.current);
          if (!frame) throw { detail: NO_VIDEO };
          const shot = await addCallScreenshot(callId, input.kind, frame);
          return { id: shot.id, preview: URL.createObjectURL(frame) };
        }),
        record: fromPromise(({ input }) =>
          addCallStep(callId, {
            ...input,
            offset_ms: Math.min(recordingStarts.offset(callId), MAX_STEP_OFFSET_MS),
          }),
        ),
      },
    }),
    { input: { steps: procedure.steps, drawn } },
  );
  useCustomerSide(callId, steps);
  return <CallLayout call={call} guide={{ procedure, steps }} remoteVideo={remoteVideo} />;
}

/**
 * The customer's side of the guided call: the step shown goes to their page, and the results their
 * entries record (a code, a serial number) come back into the steps.
 */
function useCustomerSide(callId: number, steps: StepsRef) {
  const realtime = useRealtime();
  useEffect(
    () =>
      realtime?.subscribe((event) => {
        if (event.type === 'STEP.RECORDED' && event.call_id === callId)
          steps.send({ type: 'RESULT.RECORDED', kind: event.step.kind, result: event.step.result });
      }),
    [realtime, callId, steps],
  );
  useEffect(() => {
    let shown: StepKind | null = null;
    const subscription = steps.subscribe((snapshot) => {
      if (snapshot.matches('loading')) return;
      // Every mandatory step passed: the customer is told the agent is deciding.
      const kind: StepKind | undefined =
        missingSteps(snapshot.context).length === 0
          ? 'decision'
          : snapshot.context.steps[snapshot.context.current]?.kind;
      if (!kind || kind === shown) return;
      shown = kind;
      // Not shown (the call ended meanwhile, a network error): the customer keeps the previous instruction.
      showCallStep(callId, kind).catch(() => undefined);
    });
    return () => subscription.unsubscribe();
  }, [callId, steps]);
}

/** The video, what the call machine says, and the profile with the call's questions (and steps) beside it. */
function CallLayout({
  call,
  guide,
  remoteVideo,
}: {
  call: CallRef;
  guide: (Guide & { steps: StepsRef }) | null;
  remoteVideo: VideoRef;
}) {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const snapshot = useSelector(call, (s) => s);
  const { call: queued, socketDown } = snapshot.context;
  const streams = useCallStreams(queued.call_id);
  const live = snapshot.hasTag('live');
  const name = queued.profile_name || t('queue.unnamed');

  return (
    <div className="studio-call">
      <section className="studio-call-stage" aria-labelledby="page-title">
        <header className="studio-call-header">
          <H2 id="page-title">{name}</H2>
          <CallStateTag call={call} />
          <CallQuality call={call} />
        </header>
        <CallWatchers callId={queued.call_id} live={live} />
        {socketDown && (
          <Callout intent={Intent.WARNING} icon="offline" title={tc('messages.connectionLost')}>
            {t('call.socketDownHelp')}
          </Callout>
        )}
        {live && (
          <div className="studio-call-videos">
            <div className="studio-call-remote">
              <StreamVideo
                stream={streams.remote}
                label={t('call.customerVideo')}
                videoRef={(video) => {
                  remoteVideo.current = video;
                }}
              />
              {!streams.remote && <p className="studio-call-waiting">{t('call.waitingForVideo')}</p>}
            </div>
            <StreamVideo
              stream={streams.local}
              muted
              label={t('call.ownVideo')}
              className="studio-call-local"
            />
          </div>
        )}
        <CallStatePanel call={call} guide={guide} />
      </section>
      <CallSidebar call={call} remoteVideo={remoteVideo} steps={guide?.steps ?? null} />
    </div>
  );
}

function CallStateTag({ call }: { call: CallRef }) {
  const { t } = useTranslation('calls');
  const inCall = useSelector(call, (s) => s.matches({ live: 'inCall' }) || s.hasTag('reconnecting'));
  const startedAt = useRef<string | null>(null);
  if (inCall && !startedAt.current) startedAt.current = new Date().toISOString();
  const duration = useWaited(startedAt.current);
  if (!inCall) return null;
  return (
    <>
      <Tag intent={Intent.DANGER} icon="record" round>
        {t('call.recording')}
      </Tag>
      <Tag minimal round>
        {t('call.duration', { time: duration })}
      </Tag>
    </>
  );
}

function Working({ text }: { text: string }) {
  return (
    <div className="studio-call-working" role="status">
      <Spinner size={20} />
      <span>{text}</span>
    </div>
  );
}

function CallStatePanel({ call, guide }: { call: CallRef; guide: Guide | null }) {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const snapshot = useSelector(call, (s) => s);
  const send = call.send;
  const hangUp = (
    <Button
      intent={Intent.DANGER}
      icon="phone"
      text={t('call.hangUp')}
      onClick={() => send({ type: 'HANG_UP' })}
    />
  );
  const failure = (intent: Intent, title: string, help: string) => (
    <Callout intent={intent} icon="warning-sign" title={title} role="alert">
      <p>{help}</p>
      <div className="studio-actions">
        <Button icon="refresh" text={t('call.retry')} onClick={() => send({ type: 'RETRY' })} />
        <Button
          intent={Intent.DANGER}
          icon="phone"
          text={t('call.endCall')}
          onClick={() => send({ type: 'HANG_UP' })}
        />
      </div>
    </Callout>
  );

  if (snapshot.matches('ringing'))
    return (
      <Button
        intent={Intent.SUCCESS}
        icon="phone"
        text={t('realtime.incoming.answer')}
        onClick={() => send({ type: 'ANSWER' })}
      />
    );
  if (snapshot.matches('answering')) return <Working text={t('call.answering')} />;
  if (snapshot.matches({ live: 'connecting' }))
    return (
      <div className="studio-actions">
        <Working text={t('call.connecting')} />
        {hangUp}
      </div>
    );
  if (snapshot.matches({ live: 'inCall' })) return <div className="studio-actions">{hangUp}</div>;
  if (snapshot.hasTag('reconnecting')) return <ReconnectingBanner call={call} />;
  if (snapshot.matches({ live: 'cameraDenied' }))
    return failure(Intent.DANGER, tc('messages.noCameraPermission'), t('call.cameraDeniedHelp'));
  if (snapshot.matches({ live: 'connectionFailed' }))
    return failure(Intent.DANGER, tc('messages.connectionFailed'), t('call.connectionFailedHelp'));
  if (snapshot.matches({ live: 'iceFailed' }))
    return failure(
      Intent.DANGER,
      tc('messages.connectionFailed'),
      t(`call.iceFailed.${snapshot.context.iceFailure ?? 'noPath'}`),
    );
  if (snapshot.matches({ live: 'peerLost' }))
    return failure(Intent.WARNING, tc('messages.connectionLost'), t('call.peerLostHelp'));
  if (snapshot.matches({ live: 'stopping' })) return <Working text={t('call.stopping')} />;
  if (snapshot.matches('takenByOther'))
    return <NonIdealState icon="phone" title={tc('messages.callAlreadyAnswered')} action={<BackToCalls />} />;
  if (snapshot.matches('cancelled') || snapshot.matches('dismissed'))
    return <NonIdealState icon="phone" title={t('call.cancelled')} action={<BackToCalls />} />;
  if (snapshot.matches('failed'))
    return (
      <NonIdealState
        icon="error"
        title={snapshot.context.error ?? tc('messages.error')}
        action={<BackToCalls />}
      />
    );
  return <CallEnd call={call} guide={guide} />;
}
