import { Button, Callout, Card, Elevation, Intent } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { callMachine } from '../../../machines/call.machine';
import { offerOf } from '../../../machines/callDesk.machine';
import { callPath } from '../../components/callPaths';
import { useWaited } from '../../components/useWaited';
import { type RealtimeDesk, useRealtime } from './RealtimeProvider';
import { useSecondsLeft } from './useSecondsLeft';

/** The ringing call, on every screen of an Online agent; Answer opens the call page. */
export function IncomingCall() {
  const realtime = useRealtime();
  const call = useSelector(realtime?.desk, (s) => s?.context.call ?? null);
  if (!call || !realtime) return null;
  return <Ringing call={call} desk={realtime.desk} />;
}

function Ringing({ call, desk }: { call: ActorRefFrom<typeof callMachine>; desk: RealtimeDesk['desk'] }) {
  const { t } = useTranslation('calls');
  const [location, navigate] = useLocation();
  const snapshot = useSelector(call, (s) => s);
  const waited = useWaited(snapshot.context.call.created_at);
  // One-at-a-time routing: the offer as the server last said (it moves on when the time is up).
  const expiresAt = useSelector(desk, (s) => offerOf(s.context, snapshot.context.call.call_id)?.expires_at);
  const secondsLeft = useSecondsLeft(expiresAt);
  // The room is learnt from the answer's acknowledgement only: until then, the call screen's address
  // holds a placeholder.
  const path = callPath({ ...snapshot.context.call, room_id: snapshot.context.room ?? 'answering' });
  if (snapshot.status !== 'active') return null;
  if (!snapshot.hasTag('ringing')) {
    if (location.startsWith('/call/') && location.endsWith(`/${snapshot.context.call.call_id}`)) return null;
    return (
      <div className="studio-call-toast">
        <Button
          icon="mobile-video"
          intent={Intent.PRIMARY}
          text={t('realtime.activeCall')}
          onClick={() => navigate(`~${path}`)}
        />
      </div>
    );
  }
  const name = snapshot.context.call.profile_name || t('realtime.incoming.unnamed');
  // On a card (opaque in both themes): the screen below never shows through the ringing call.
  return (
    <Card elevation={Elevation.FOUR} className="studio-call-toast studio-call-ring">
      <Callout
        intent={Intent.PRIMARY}
        icon="mobile-video"
        title={t('realtime.incoming.title')}
        role="alertdialog"
        aria-live="assertive"
      >
        <p>{t('realtime.incoming.waiting', { name })}</p>
        <p className="studio-muted">{t('realtime.incoming.since', { time: waited })}</p>
        {secondsLeft !== null && (
          <p data-testid="offer-seconds-left">{t('routing.timeLeft', { count: secondsLeft })}</p>
        )}
        <Button
          intent={Intent.SUCCESS}
          icon="phone"
          text={t('realtime.incoming.answer')}
          autoFocus
          onClick={() => {
            call.send({ type: 'ANSWER' });
            navigate(`~${path}`);
          }}
        />
      </Callout>
    </Card>
  );
}
