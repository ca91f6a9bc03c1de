import { AnchorButton, Callout, H2, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'wouter';
import { MAX_WATCHED_CALLS } from '#contract/callWatch';
import { callWatchKeys, getWatching, startWatch } from '../../../services/api/callWatch';
import { isApiError } from '../../../services/api/http';
import { type RealtimeDesk, useRealtime } from '../../app/realtime/RealtimeProvider';
import { usePageTitle } from '../../app/usePageTitle';
import { WatchTile } from './WatchTile';
import './watch.css';

/**
 * watch (docs/decisions/0208-supervisors-watch-calls.md): the calls this supervisor watches, up to four on a
 * wall, one of them opened large. `?add=<call>` starts watching a call (the Calls screen's Watch); the wall
 * itself is read from the server, so it survives a reload.
 */
export function WatchScreen() {
  const { t } = useTranslation('calls');
  usePageTitle(t('watch.title'));
  const realtime = useRealtime();
  return (
    <section className="studio-watch" aria-labelledby="page-title">
      <H2 id="page-title">{t('watch.title')}</H2>
      {realtime ? (
        <Wall realtime={realtime} />
      ) : (
        <NonIdealState icon="eye-open" description={t('watch.empty')} />
      )}
    </section>
  );
}

/** The wall's calls with these added (in the order they came, the newest four). */
function withCalls(before: number[], callIds: readonly number[]): number[] {
  const next = [...before];
  for (const callId of callIds) if (!next.includes(callId)) next.push(callId);
  return next.length === before.length ? before : next.slice(-MAX_WATCHED_CALLS);
}

function Wall({ realtime }: { realtime: RealtimeDesk }) {
  const { t } = useTranslation('calls');
  const queryClient = useQueryClient();
  const [query, setQuery] = useSearchParams();
  const [refused, setRefused] = useState<string | null>(null);
  const [removed, setRemoved] = useState<ReadonlySet<number>>(new Set());
  const add = Number(query.get('add'));
  const open = Number(query.get('open')) || null;
  const watching = useQuery({
    queryKey: callWatchKeys.watching,
    queryFn: ({ signal }) => getWatching({ signal }),
  });
  // Calls stay on the wall after they end (their tile says how) until removed.
  const [shown, setShown] = useState<number[]>([]);

  // The Watch action: the server decides, then the call joins the wall (the address loses `add`).
  useEffect(() => {
    if (!Number.isInteger(add) || add <= 0) return;
    const controller = new AbortController();
    startWatch(add, { signal: controller.signal })
      .then((grant) => {
        queryClient.setQueryData(['videocall', add, 'watch'], grant);
        setRefused(null);
        // On the wall at once: the list read while the server decided may not have it yet.
        setShown((before) => withCalls(before, [add]));
        setRemoved((before) => new Set([...before].filter((id) => id !== add)));
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setRefused(isApiError(error) ? error.detail : String(error));
      })
      .finally(() => {
        if (controller.signal.aborted) return;
        void queryClient.invalidateQueries({ queryKey: callWatchKeys.watching });
        setQuery({}, { replace: true });
      });
    return () => controller.abort();
  }, [add, queryClient, setQuery]);

  useEffect(() => {
    const listed = watching.data?.map((watch) => watch.call_id);
    if (listed) setShown((before) => withCalls(before, listed));
  }, [watching.data]);
  const calls = shown.filter((id) => !removed.has(id));
  const visible = open && calls.includes(open) ? [open] : calls;

  return (
    <>
      {refused && (
        <Callout intent={Intent.WARNING} role="alert">
          {t('watch.refused', { detail: refused })}
        </Callout>
      )}
      {watching.isPending && <Spinner aria-label={t('watch.loading')} />}
      {watching.isSuccess && calls.length === 0 && (
        <NonIdealState
          icon="eye-open"
          description={t('watch.empty')}
          action={
            <Link href="~/calls" asChild>
              <AnchorButton role="link" icon="arrow-left" text={t('watch.toCalls')} />
            </Link>
          }
        />
      )}
      <div className={`studio-watch-wall${visible.length === 1 ? ' studio-watch-single' : ''}`}>
        {visible.map((callId) => (
          <WatchTile
            key={callId}
            callId={callId}
            realtime={realtime}
            large={open === callId}
            onOpen={() => setQuery(open === callId ? {} : { open: String(callId) }, { replace: true })}
            onClose={() => {
              setRemoved((before) => new Set([...before, callId]));
              if (open === callId) setQuery({}, { replace: true });
              void queryClient.invalidateQueries({ queryKey: callWatchKeys.watching });
            }}
          />
        ))}
      </div>
    </>
  );
}
