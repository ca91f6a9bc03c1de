/**
 * The agent's side of a call session, run by the call machine's `session` actor: camera and microphone, the
 * initiating peer in the call room, and the recording of both sides, kept in the browser when it stops.
 * Reports PEER.CONNECTED / PEER.RECONNECTING (the same peer restarts ICE after a drop; PEER.CONNECTED when it is
 * back) / PEER.LOST / PEER.FAILED / MEDIA.DENIED / RECORDING.READY; takes SESSION.RESTART and SESSION.STOP.
 */
import type { CallIce, QueuedCall } from '#contract/socket';
import type { SessionCommand, SessionReport } from '../machines/call.machine';
import { addCallQuality } from './api/callQuality';
import {
  type CallRecorder,
  linkPeer,
  openCallMedia,
  type PeerLink,
  RESTART_SIGNAL,
  recordCall,
  stopMedia,
} from './callMedia';
import { watchCallPath } from './callPath';
import { callStreams, recordingStarts } from './callStreams';
import { meterQuality } from './qualityMeter';
import { keepRecording } from './recordings';
import type { Realtime } from './socket';

export function runCallSession(options: {
  call: QueuedCall;
  room: string;
  account: string;
  realtime: Realtime;
  sendBack: (report: SessionReport) => void;
  receive: (listener: (command: SessionCommand) => void) => void;
}): () => void {
  const { call, room, realtime, sendBack } = options;
  const callId = call.call_id;
  let media: MediaStream | null = null;
  let link: PeerLink | null = null;
  let recorder: CallRecorder | null = null;
  let connected = false;
  let stopped = false;
  let stopMeter: (() => void) | null = null;

  async function start(restart: boolean) {
    stopMeter?.();
    stopMeter = null;
    link?.destroy();
    link = null;
    connected = false;
    try {
      media ??= await openCallMedia();
    } catch {
      sendBack({ type: 'MEDIA.DENIED' });
      return;
    }
    if (stopped) return;
    callStreams.set(callId, { local: media });
    let ice: CallIce;
    try {
      // The answer's servers the first time, fresh credentials for a new peer after that.
      ice = await realtime.ice(callId);
      await realtime.join(room);
      if (restart) await realtime.send(room, RESTART_SIGNAL);
    } catch {
      sendBack({ type: 'PEER.FAILED' });
      return;
    }
    const stream = media;
    const current = linkPeer({
      initiator: true,
      stream,
      room,
      signalling: realtime,
      iceServers: ice.iceServers,
      iceTransportPolicy: ice.iceTransportPolicy,
      freshIceServers: async () => (await realtime.ice(callId).catch(() => null))?.iceServers ?? null,
      handlers: {
        onStream(remote) {
          callStreams.set(callId, { remote });
          if (!recorder) {
            recorder = recordCall([stream, remote]);
            recordingStarts.mark(callId);
          }
        },
        onConnect() {
          connected = true;
          sendBack({ type: 'PEER.CONNECTED' });
          stopMeter?.();
          const stopQuality = meterQuality({
            peer: current.connection(),
            send: (samples) => addCallQuality(callId, samples),
            onSample: (sample) => sendBack({ type: 'QUALITY.SAMPLE', sample }),
          });
          const stopPath = watchCallPath(current.connection(), callId);
          stopMeter = () => {
            stopQuality();
            stopPath();
          };
        },
        onIceFailed: (cause) => sendBack({ type: 'ICE.FAILED', cause }),
        onClose: () => sendBack({ type: 'PEER.LOST' }),
        onError: () => sendBack({ type: connected ? 'PEER.LOST' : 'PEER.FAILED' }),
        onReconnecting: (at) => sendBack({ type: 'PEER.RECONNECTING', at }),
        onReconnected: () => sendBack({ type: 'PEER.CONNECTED' }),
      },
    });
    link = current;
  }

  async function stop() {
    stopped = true;
    stopMeter?.();
    link?.destroy();
    link = null;
    let kept = false;
    try {
      const blob = recorder ? await recorder.stop() : null;
      recorder = null;
      if (blob && blob.size > 0) {
        await keepRecording({ callId, profileId: call.profile, account: options.account, blob });
        kept = true;
      }
    } finally {
      stopMedia(media);
      media = null;
      callStreams.delete(callId);
      void realtime.leave(room).catch(() => undefined);
      sendBack({ type: 'RECORDING.READY', kept });
    }
  }

  options.receive((command) => {
    if (command.type === 'SESSION.RESTART') void start(true);
    else void stop();
  });
  void start(false);

  return () => {
    if (stopped) return;
    stopped = true;
    stopMeter?.();
    link?.destroy();
    stopMedia(media);
    callStreams.delete(callId);
  };
}
