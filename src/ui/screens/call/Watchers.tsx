import { Callout, Intent, Tag } from '@blueprintjs/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CallWatcher, Whisper } from '#contract/callWatch';
import { callWatchKeys, getWatchers, getWhispers } from '../../../services/api/callWatch';
import { callStreams } from '../../../services/callStreams';
import { forwardToWatchers } from '../../../services/watchMedia';
import { useRealtime } from '../../app/realtime/RealtimeProvider';

/** Whispers shown on the call screen at once: the newest, so the list never grows over the video. */
const SHOWN_WHISPERS = 3;

/**
 * The agent always knows who watches the call, and reads what they whisper; while the call is live the agent's
 * browser forwards the call to each watcher (docs/decisions/0208-supervisors-watch-calls.md).
 */
export function CallWatchers({ callId, live }: { callId: number; live: boolean }) {
  const { t } = useTranslation('calls');
  // The socket layer, not the desk around it: the desk is a new object whenever the socket reconnects, and
  // forwarding again would close every watcher's connection with no watcher joining to be offered a new one.
  const socket = useRealtime()?.realtime;
  const queryClient = useQueryClient();
  const channel = socket?.callWatch;
  const [watchers, setWatchers] = useState<CallWatcher[]>([]);
  // After a reload of the call screen: who watches already, and what they whispered.
  const known = useQuery({
    queryKey: callWatchKeys.watchers(callId),
    queryFn: ({ signal }) => getWatchers(callId, { signal }),
  });
  useEffect(() => {
    if (known.data) setWatchers(known.data.filter((watch) => watch.ended_at === null));
  }, [known.data]);
  const whispers = useQuery({
    queryKey: callWatchKeys.whispers(callId),
    queryFn: ({ signal }) => getWhispers(callId, { signal }),
  });

  useEffect(
    () =>
      channel?.subscribe((event) => {
        if (event.type === 'WATCHERS' && event.call_id === callId) setWatchers(event.watchers);
        if (event.type === 'WHISPER' && event.whisper.call_id === callId)
          queryClient.setQueryData<Whisper[]>(callWatchKeys.whispers(callId), (list = []) =>
            list.some((w) => w.id === event.whisper.id) ? list : [...list, event.whisper],
          );
      }),
    [channel, callId, queryClient],
  );

  useEffect(() => {
    if (!live || !socket) return;
    return forwardToWatchers({
      callId,
      channel: socket.callWatch,
      ice: () => socket.ice(callId),
      streams: () => callStreams.get(callId),
      onStreamsChange: callStreams.subscribe,
    });
  }, [live, socket, callId]);

  const names = [...new Set(watchers.map((watch) => watch.name))];
  const latest = (whispers.data ?? []).slice(-SHOWN_WHISPERS);
  if (names.length === 0 && latest.length === 0) return null;
  return (
    <div className="studio-call-watchers">
      {names.length > 0 && (
        <Tag intent={Intent.PRIMARY} icon="eye-open" round role="status" data-testid="call-watchers">
          {t('watch.watching', { count: names.length, names: names.join(', ') })}
        </Tag>
      )}
      {latest.length > 0 && (
        <Callout intent={Intent.PRIMARY} icon="chat" title={t('watch.whispersOnCall')} compact>
          <ul aria-live="polite" data-testid="call-whispers">
            {latest.map((whisper) => (
              <li key={whisper.id}>
                {t('watch.whisperFrom', { name: whisper.author.name, text: whisper.text })}
              </li>
            ))}
          </ul>
        </Callout>
      )}
    </div>
  );
}
