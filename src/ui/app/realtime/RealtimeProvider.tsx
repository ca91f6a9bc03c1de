/**
 * The realtime side of the shell for accounts that take or watch calls: one socket connection, the agent's
 * availability and call desk machines, fed by the socket's events. Views read them with the hooks below and
 * send events; they never touch the socket.
 */

import i18next, { type TFunction } from 'i18next';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { type ActorRefFrom, createActor, fromCallback, fromPromise } from 'xstate';
import type { QueuedCall } from '#contract/socket';
import { agentAvailabilityMachine } from '../../../machines/agentAvailability.machine';
import { callMachine, type SessionCommand, type SessionReport } from '../../../machines/call.machine';
import { callDeskMachine } from '../../../machines/callDesk.machine';
import { type RecordingUploadEvent, recordingUploadMachine } from '../../../machines/recordingUpload.machine';
import { type Account, accountKey, accounts } from '../../../services/accounts';
import { isApiError } from '../../../services/api/http';
import {
  getSocketToken,
  getVideoCall,
  setAgentStatus,
  setCallStatus,
  uploadRecording,
} from '../../../services/api/videocalls';
import { downloadRecording, keptRecording, runRecordingUpload } from '../../../services/recordings';
import { connectRealtime, type Realtime } from '../../../services/socket';
import { showError, showSuccess } from '../../toaster';
import { queryClient } from '../queryClient';
import { ProfileSocketContext, ProfileSocketOnly } from './ProfileSocket';
import { wireDesk } from './wireDesk';

export interface RealtimeDesk {
  realtime: Realtime;
  availability: ActorRefFrom<typeof agentAvailabilityMachine>;
  desk: ActorRefFrom<typeof callDeskMachine>;
  /** Upload machines for recordings kept from earlier (a reload): provided the same way as in calls. */
  uploadMachine: typeof recordingUploadMachine;
  /** Socket events for views that show live figures (instant stats, the agent board). */
  subscribe: Realtime['subscribe'];
  connected: boolean;
}

const RealtimeContext = createContext<RealtimeDesk | null>(null);

/** The account's realtime desk, or null when the account neither takes nor watches calls. */
export const useRealtime = () => useContext(RealtimeContext);

/** The camera, peer and recording code (simple-peer, RecordRTC) loads with the first call, not with the shell. */
function lazySession(realtime: Realtime, account: string) {
  return fromCallback<SessionCommand, { call: QueuedCall; room: string }>(({ input, sendBack, receive }) => {
    const early: SessionCommand[] = [];
    let deliver: ((command: SessionCommand) => void) | null = null;
    receive((command) => (deliver ? deliver(command) : early.push(command)));
    let cleanup: (() => void) | null = null;
    let stopped = false;
    void import('../../../services/callSession').then(({ runCallSession }) => {
      if (stopped) return;
      cleanup = runCallSession({
        call: input.call,
        room: input.room,
        account,
        realtime,
        sendBack: (report: SessionReport) => sendBack(report),
        receive: (listener) => {
          deliver = listener;
          for (const command of early.splice(0)) listener(command);
        },
      });
    });
    return () => {
      stopped = true;
      cleanup?.();
    };
  });
}

/** Builds the account's connection and machines; nothing starts until `start`. */
function createDesk(account: Account, t: TFunction): Omit<RealtimeDesk, 'connected'> {
  const key = accountKey(account);
  const realtime = connectRealtime({
    server: account.server,
    // The token at each (re)connect: the stored one may have been renewed since.
    socketToken: async () => (await getSocketToken(accounts.active()?.access ?? account.access)).token,
  });
  const failed = (error: unknown) => void showError(isApiError(error) ? error.detail : t('messages.error'));
  // A call's status and recording change its profile (Video Calls tab, logs): an open profile reads them again
  // rather than showing what it cached before the call.
  const profileChanged = <T,>(result: T) => {
    void queryClient.invalidateQueries({ queryKey: ['profiles', 'detail'] });
    return result;
  };
  const uploadMachine = recordingUploadMachine.provide({
    actors: {
      upload: fromCallback<RecordingUploadEvent, { callId: number }>(({ input, sendBack }) =>
        runRecordingUpload({
          callId: input.callId,
          upload: (blob, progress) => uploadRecording(input.callId, blob, progress).then(profileChanged),
          report: sendBack,
        }),
      ),
    },
    actions: {
      download: (_, callId) => {
        void keptRecording(callId).then((kept) => {
          if (!kept || !downloadRecording(kept)) void showError(t('messages.downloadDenied'));
        });
      },
    },
  });
  const call = callMachine.provide({
    actors: {
      answer: fromPromise(({ input }) => realtime.answer(input.callId)),
      session: lazySession(realtime, key),
      saveStatus: fromPromise(({ input }) =>
        setCallStatus(input.callId, input.status, input.outcomeReason).then(profileChanged),
      ),
      checkCall: fromPromise(({ input, signal }) => getVideoCall(input.callId, { signal })),
      recordingUpload: uploadMachine,
    },
    actions: {
      hangUp: (_, callId) => void realtime.hangUp(callId).catch(() => undefined),
      notifyTaken: () => void showError(t('messages.callAlreadyAnswered')),
      notifyCustomerAway: () => void showError(t('messages.customerNotConnected')),
      notifyCompleted: () => void showSuccess(t('messages.callCompleted')),
      notifyDone: () => void showSuccess(t('success.callStatusUpdated')),
      notifyClosed: (_, reason) =>
        void showError(
          t('messages.callClosed', {
            reason: t(`callEndReasons.${reason ?? 'server_restart'}`, { defaultValue: reason ?? '' }),
          }),
        ),
      notifyFailed: (_, detail) => void showError(detail ?? t('messages.error')),
      notifyConnectionGaveUp: () => void showError(t('messages.connectionGaveUp')),
    },
  });
  const availability = createActor(
    agentAvailabilityMachine.provide({
      actors: { setStatus: fromPromise(({ input }) => setAgentStatus(input.status)) },
      actions: { notifyFailed: (_, error) => failed(error) },
    }),
  );
  const desk = createActor(callDeskMachine.provide({ actors: { call } }), { input: { agentId: account.id } });
  return { realtime, availability, desk, uploadMachine, subscribe: realtime.subscribe };
}

function useDesk(account: Account): RealtimeDesk | null {
  const [connected, setConnected] = useState(true);
  const [parts, setParts] = useState<Omit<RealtimeDesk, 'connected'> | null>(null);
  const current = useRef(account);
  current.current = account;
  // Connected in an effect (not during render), so React's double mount in development cannot leave a
  // closed socket behind. One connection per account (the provider is keyed by it).
  useEffect(() => {
    // Not `useTranslation`'s `t` (nor its `i18n`: react-i18next 18 wraps it anew per language): a new desk on a
    // language change would drop the socket and the call in progress. A function fixed to no language
    // translates each message in the language current then.
    const next = createDesk(current.current, i18next.getFixedT(null, 'common'));
    const stop = wireDesk(next, current.current.id, setConnected);
    setParts(next);
    return () => {
      stop();
      setParts(null);
    };
  }, []);
  return useMemo(() => (parts ? { ...parts, connected } : null), [parts, connected]);
}

function Connected({ account, children }: { account: Account; children: ReactNode }) {
  const value = useDesk(account);
  return (
    <RealtimeContext.Provider value={value}>
      <ProfileSocketContext.Provider value={value?.realtime ?? null}>
        {children}
      </ProfileSocketContext.Provider>
    </RealtimeContext.Provider>
  );
}

/**
 * Connects accounts that may visit the calls area (agents and supervisors) with the call desk; accounts that
 * only review profiles get a socket for profile presence alone.
 */
export function RealtimeProvider({ account, children }: { account: Account; children: ReactNode }) {
  if (!account.permissions.includes('view_calls_page')) {
    if (
      !account.permissions.includes('view_profiles_page') &&
      !account.permissions.includes('review_profiles')
    )
      return children;
    return (
      <ProfileSocketOnly key={accountKey(account)} account={account}>
        {children}
      </ProfileSocketOnly>
    );
  }
  return (
    <Connected key={accountKey(account)} account={account}>
      {children}
    </Connected>
  );
}
