import { useMachine } from '@xstate/react';
import i18next from 'i18next';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromCallback, fromPromise } from 'xstate';
import { type CustomerCallEvent, customerCallMachine } from '../machines/customerCall.machine';
import { isRestartSignal, linkPeer, openCallMedia, type PeerLink, stopMedia } from '../services/callMedia';
import type { Signalling } from '../services/socket';
import { StreamVideo } from '../shared/StreamVideo';
import { connectCustomer, profileOfToken } from './connection';
import { DeviceCheck } from './DeviceCheck';
import { measureCustomerQuality } from './quality';
import { StepGuide } from './StepGuide';
import { SupervisorNotice } from './SupervisorNotice';

/** The customer's page: camera, queue, call. */
export function CustomerApp({ token }: { token: string }) {
  const { t } = useTranslation('customer');
  const profileId = profileOfToken(token);
  if (!profileId) return <Frame title={t('invalidTitle')}>{t('invalidBody')}</Frame>;
  return <CustomerCall token={token} profileId={profileId} />;
}

function Frame({ title, children }: { title: string; children?: ReactNode }) {
  const { t, i18n } = useTranslation('customer');
  const other = i18n.language.startsWith('tr') ? 'en-US' : 'tr';
  return (
    <main className="customer-page">
      <header className="customer-header">
        <span className="customer-brand">{t('brand')}</span>
        <button type="button" className="customer-link" onClick={() => void i18n.changeLanguage(other)}>
          {t('otherLanguage')}
        </button>
      </header>
      <h1>{title}</h1>
      {children}
    </main>
  );
}

/** The language the page shows now: the consent text the customer reads is the one they agree to. */
function consentLanguage(): 'en-US' | 'tr' {
  return i18next.language.startsWith('tr') ? 'tr' : 'en-US';
}

/** The company's consent text in the page's language, its paragraphs kept. */
function ConsentText({ text }: { text: { en: string; tr: string } }) {
  const { i18n } = useTranslation('customer');
  const shown = i18n.language.startsWith('tr') ? text.tr : text.en;
  return (
    <div className="customer-consent" data-testid="consent-text">
      {shown.split(/\n{2,}/).map((paragraph, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the paragraphs of one fixed text
        <p key={index}>{paragraph}</p>
      ))}
    </div>
  );
}

function useCustomerMachine(token: string, profileId: number) {
  const [local, setLocal] = useState<MediaStream | null>(null);
  const [remote, setRemote] = useState<MediaStream | null>(null);
  const deliver = useRef<(event: CustomerCallEvent) => void>(() => undefined);
  const { machine, enter } = useMemo(() => {
    const connection = connectCustomer({
      server: window.location.origin,
      token,
      profileId,
      report: (event) => deliver.current(event),
    });
    let media: MediaStream | null = null;
    const machine = customerCallMachine.provide({
      actors: {
        // Opened again with the devices chosen in the check: the previous camera is let go first.
        openCamera: fromPromise(async ({ input }) => {
          stopMedia(media);
          media = null;
          setLocal(null);
          media = await openCallMedia(input);
          setLocal(media);
        }),
        loadConsent: fromPromise(() => connection.consent()),
        join: fromPromise(({ input }) => connection.join(input.consent)),
        peer: fromCallback(({ sendBack }) => {
          let link: PeerLink | null = null;
          let stopQuality = () => {};
          // A retried connection: the agent asks for a fresh peer, then sends a new offer.
          const signalling: Signalling = {
            ...connection.signalling,
            onSignal: (room, listener) =>
              connection.signalling.onSignal(room, (data) =>
                isRestartSignal(data) ? start() : listener(data),
              ),
          };
          function start() {
            link?.destroy();
            if (!media) return;
            const ice = connection.ice();
            link = linkPeer({
              initiator: false,
              stream: media,
              room: connection.room(),
              signalling,
              // Without the server's word, relay-only: a call that cannot connect rather than an address shown.
              iceServers: ice?.iceServers ?? [],
              iceTransportPolicy: ice?.iceTransportPolicy ?? 'relay',
              freshIceServers: async () => (await connection.freshIce())?.iceServers ?? null,
              handlers: {
                onStream: setRemote,
                onConnect: () => {
                  sendBack({ type: 'PEER.CONNECTED' });
                  stopQuality();
                  if (link)
                    stopQuality = measureCustomerQuality({
                      server: window.location.origin,
                      token,
                      callId: connection.callId(),
                      link,
                    });
                },
                onClose: () => sendBack({ type: 'PEER.LOST' }),
                onError: () => sendBack({ type: 'PEER.LOST' }),
                onReconnecting: () => sendBack({ type: 'PEER.RECONNECTING' }),
                onReconnected: () => sendBack({ type: 'PEER.CONNECTED' }),
              },
            });
          }
          start();
          return () => {
            stopQuality();
            link?.destroy();
            stopMedia(media);
            media = null;
            setLocal(null);
            setRemote(null);
          };
        }),
      },
      actions: { leave: () => connection.leave() },
    });
    return { machine, enter: connection.enter };
  }, [token, profileId]);
  const [state, send, actor] = useMachine(machine);
  deliver.current = actor.send;
  return { state, send, local, remote, enter };
}

function CustomerCall({ token, profileId }: { token: string; profileId: number }) {
  const { t } = useTranslation('customer');
  const { state, send, local, remote, enter } = useCustomerMachine(token, profileId);
  const { position, expectedWait, agentName, reconnecting } = state.context;
  const leave = (
    <button type="button" className="customer-button customer-danger" onClick={() => send({ type: 'LEAVE' })}>
      {state.matches('live') ? t('hangUp') : t('leave')}
    </button>
  );
  const retry = (
    <button type="button" className="customer-button" onClick={() => send({ type: 'RETRY' })}>
      {t('retry')}
    </button>
  );

  if (state.matches('consenting') && state.context.consentText)
    return (
      <Frame title={t('consent.title')}>
        <ConsentText text={state.context.consentText} />
        <p className="customer-muted">{t('consent.help')}</p>
        <div className="customer-actions">
          <button
            type="button"
            className="customer-button"
            onClick={() => send({ type: 'AGREE', language: consentLanguage() })}
          >
            {t('consent.agree')}
          </button>
          <button
            type="button"
            className="customer-button customer-secondary"
            onClick={() => send({ type: 'DECLINE' })}
          >
            {t('consent.decline')}
          </button>
        </div>
      </Frame>
    );
  if (state.matches('declined'))
    return (
      <Frame title={t('consent.declinedTitle')}>
        <p>{t('consent.declinedBody')}</p>
        <button type="button" className="customer-button" onClick={() => send({ type: 'RETRY' })}>
          {t('consent.readAgain')}
        </button>
      </Frame>
    );
  if (state.matches('consentFailed'))
    return (
      <Frame title={t('joinFailedTitle')}>
        <p>{t('joinFailedBody')}</p>
        {retry}
      </Frame>
    );
  if (state.matches('cameraDenied'))
    return (
      <Frame title={t('cameraDeniedTitle')}>
        <p>{t('cameraDeniedBody')}</p>
        {retry}
      </Frame>
    );
  if (state.matches('joinFailed'))
    return (
      <Frame title={t('joinFailedTitle')}>
        <p>{t('joinFailedBody')}</p>
        {retry}
      </Frame>
    );
  if (state.matches('linkUsed'))
    return (
      <Frame title={t('linkUsedTitle')}>
        <p role="alert">{t('linkUsedBody')}</p>
      </Frame>
    );
  if (state.matches('checking'))
    return (
      <Frame title={t('check.title')}>
        <DeviceCheck
          stream={local}
          onChoose={(kind, deviceId) => send({ type: 'DEVICE.CHOSEN', kind, deviceId })}
          onJoin={() => send({ type: 'JOIN' })}
        />
      </Frame>
    );
  if (state.matches('ended')) return <Frame title={t('endedTitle')}>{t('endedBody')}</Frame>;
  if (state.matches('left')) return <Frame title={t('leftTitle')}>{t('leftBody')}</Frame>;
  if (state.matches('lost')) return <Frame title={t('lostTitle')}>{t('lostBody')}</Frame>;
  if (state.matches('live'))
    return (
      <Frame
        title={
          state.matches({ live: 'inCall' })
            ? t('inCallTitle', { name: agentName })
            : state.matches({ live: 'reconnecting' })
              ? t('reconnectingTitle')
              : t('connectingTitle', { name: agentName })
        }
      >
        {state.matches({ live: 'reconnecting' }) && (
          <p role="status" aria-live="polite" data-testid="call-reconnecting">
            {t('reconnectingBody')}
          </p>
        )}
        <div className="customer-videos">
          <StreamVideo stream={remote} label={t('agentVideo')} className="customer-remote" />
          <StreamVideo stream={local} muted label={t('ownVideo')} className="customer-local" />
        </div>
        <StepGuide step={state.context.step} code={state.context.code} enter={enter} />
        <SupervisorNotice token={token} />
        {leave}
      </Frame>
    );
  return (
    <Frame title={state.matches('waiting') ? t('waitingTitle') : t('preparingTitle')}>
      <StreamVideo stream={local} muted label={t('ownVideo')} className="customer-preview" />
      {state.matches('waiting') ? (
        <>
          <p role="status" aria-live="polite" data-testid="queue-position">
            {reconnecting
              ? t('reconnecting')
              : position === null
                ? t('joined')
                : expectedWait === 0
                  ? t('positionNow', { position })
                  : t('position', { position, minutes: Math.max(1, Math.round((expectedWait ?? 60) / 60)) })}
          </p>
          <p className="customer-muted">{t('waitingHelp')}</p>
          <SupervisorNotice token={token} />
          {leave}
        </>
      ) : (
        <p role="status">
          {state.matches('consent')
            ? t('consent.loading')
            : state.matches('camera')
              ? t('cameraAsk')
              : t('joining')}
        </p>
      )}
    </Frame>
  );
}
