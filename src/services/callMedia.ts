/**
 * The media of a video call: camera and microphone, the WebRTC peer (simple-peer, signalled through the
 * socket's call rooms) and the recording of both sides (RecordRTC, webm).
 */
import RecordRTC from 'recordrtc';
import SimplePeer from 'simple-peer';
import type { ChosenDevices } from '../machines/customerCall.machine';
import { type IceFailure, watchIceFailure } from './iceFailure';
import { keepConnected } from './iceRestart';
import { CameraDeniedError } from './media';
import { adaptVideoSender } from './senderAdaptation';
import type { Signalling } from './socket';

export async function openCallMedia(chosen: ChosenDevices = {}): Promise<MediaStream> {
  const device = (id: string | undefined) => (id ? { deviceId: { exact: id } } : {});
  try {
    return await navigator.mediaDevices.getUserMedia({
      video: { width: 640, height: 480, ...device(chosen.camera) },
      audio: chosen.microphone ? device(chosen.microphone) : true,
    });
  } catch (error) {
    throw new CameraDeniedError(error instanceof Error ? error.message : String(error));
  }
}

export interface MediaDevice {
  id: string;
  label: string;
}

/** The cameras and microphones the browser offers (their names once the camera was allowed). */
export async function listMediaDevices(): Promise<{ cameras: MediaDevice[]; microphones: MediaDevice[] }> {
  const devices = await navigator.mediaDevices.enumerateDevices();
  const of = (kind: MediaDeviceKind) =>
    devices
      .filter((d) => d.kind === kind && d.deviceId)
      .map((d, index) => ({ id: d.deviceId, label: d.label || `${index + 1}` }));
  return { cameras: of('videoinput'), microphones: of('audioinput') };
}

/** The id of the device a stream's track of that kind comes from. */
export const deviceOf = (stream: MediaStream | null, kind: 'audio' | 'video') =>
  (kind === 'audio' ? stream?.getAudioTracks() : stream?.getVideoTracks())?.[0]?.getSettings().deviceId ?? '';

export function stopMedia(stream: MediaStream | null | undefined): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

export interface PeerHandlers {
  onStream(stream: MediaStream): void;
  onConnect(): void;
  onClose(): void;
  onError(error: Error): void;
  /** The link went down after it was up; an ICE restart is under way (`at`: Date.now()). */
  onReconnecting?(at: number): void;
  /** The link is up again after a restart: same peer, same streams. */
  onReconnected?(): void;
  /** The peer could not connect, and why (refused TURN credentials, an unreachable server, no path). */
  onIceFailed?(cause: IceFailure): void;
}

export interface PeerLink {
  destroy(): void;
  /** The peer's RTCPeerConnection (for getStats: call quality). */
  connection(): RTCPeerConnection;
}

/**
 * A WebRTC peer in a call room. The initiator sends the offer; the other side must create its peer as soon as
 * it knows the call is answered, before the offer arrives (browser-tests note, pitfall 3).
 * The STUN/TURN servers and the transport policy are the ones the server gave this side of this call (none:
 * loopback and LAN only; public STUN servers are never used).
 */
export function linkPeer(options: {
  initiator: boolean;
  stream: MediaStream;
  room: string;
  signalling: Signalling;
  handlers: PeerHandlers;
  iceServers?: RTCIceServer[];
  /** `relay`: only paths through the TURN server, so the other side never learns this side's address. */
  iceTransportPolicy?: RTCIceTransportPolicy;
  /** Fresh ICE servers (new TURN credentials) before an ICE restart, where the app can get them. */
  freshIceServers?: () => Promise<RTCIceServer[] | null>;
}): PeerLink {
  const { signalling, room, handlers } = options;
  const peer = new SimplePeer({
    initiator: options.initiator,
    stream: options.stream,
    trickle: true,
    config: { iceServers: options.iceServers ?? [], iceTransportPolicy: options.iceTransportPolicy ?? 'all' },
  });
  let closed = false;
  const stopWatchingIce = handlers.onIceFailed
    ? watchIceFailure(
        (peer as unknown as { _pc: RTCPeerConnection })._pc,
        options.iceTransportPolicy === 'relay',
        (cause) => {
          if (!closed) handlers.onIceFailed?.(cause);
        },
      )
    : () => {};
  const send = (data: Record<string, unknown>) => void signalling.send(room, data).catch(() => undefined);
  peer.on('signal', (data) => send(data as unknown as Record<string, unknown>));
  const keeper = keepConnected({
    peer,
    initiator: options.initiator,
    send,
    freshIceServers: options.freshIceServers,
    onReconnecting: (at) => handlers.onReconnecting?.(at),
    onReconnected: () => handlers.onReconnected?.(),
  });
  const stopListening = signalling.onSignal(room, (data) => {
    if (!closed && !keeper.intercept(data)) peer.signal(data as unknown as SimplePeer.SignalData);
  });
  let stopAdapting = () => {};
  peer.on('stream', handlers.onStream);
  peer.on('connect', () => {
    stopAdapting = adaptVideoSender((peer as unknown as { _pc: RTCPeerConnection })._pc);
    handlers.onConnect();
  });
  peer.on('close', () => {
    if (!closed) handlers.onClose();
  });
  peer.on('error', (error) => {
    if (!closed) handlers.onError(error);
  });
  return {
    destroy() {
      closed = true;
      stopWatchingIce();
      keeper.stop();
      stopAdapting();
      stopListening();
      peer.destroy();
    },
    // simple-peer keeps it as `_pc` (not in its types; set in its constructor, so there once the peer exists).
    connection: () => (peer as unknown as { _pc: RTCPeerConnection })._pc,
  };
}

export interface CallRecorder {
  /** Stops and resolves with the webm of the whole recording. */
  stop(): Promise<Blob>;
}

/**
 * How often the recorder draws both sides onto the canvas it records (docs/decisions/0185-recording-drawn-at-a-cameras-rate.md): 30 times a second, a camera's
 * rate. RecordRTC's default is every 10 ms: a hundred draws a second of both videos onto the canvas, each a frame
 * offered to the encoder, on the agent's computer during the whole call.
 */
const RECORDING_FRAME_MS = 1000 / 30;

/** Records both sides of the call into one webm (RecordRTC's multi-stream recorder). */
export function recordCall(streams: MediaStream[]): CallRecorder {
  const recorder = new RecordRTC(streams, {
    type: 'video',
    mimeType: 'video/webm',
    disableLogs: true,
    frameInterval: RECORDING_FRAME_MS,
  });
  recorder.startRecording();
  return {
    stop: () =>
      new Promise((resolve) => {
        recorder.stopRecording(() => {
          const blob = recorder.getBlob();
          recorder.destroy();
          resolve(blob);
        });
      }),
  };
}

/** A signal that tells the other side to drop its peer and wait for a new offer (a retried connection). */
export const RESTART_SIGNAL = { type: 'restart' } as const;
export const isRestartSignal = (data: Record<string, unknown>) => data.type === RESTART_SIGNAL.type;
