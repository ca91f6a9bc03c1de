import { Button, Callout, Card, H5, Intent, Spinner } from '@blueprintjs/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listDevices, listLogs, listNotes, profileDetailKeys } from '../../../services/api/profileDetail';
import { useDateFormat } from './useDateFormat';

/** The profile sidebar (§2): logs (20 a page, load more with after_id), notes and device data. */
export function ProfileSidebar({ profileId }: { profileId: number }) {
  const { t } = useTranslation('profile');
  return (
    <aside className="studio-profile-sidebar" aria-label={t('sidebar.label')}>
      <Logs profileId={profileId} />
      <Notes profileId={profileId} />
      <Devices profileId={profileId} />
    </aside>
  );
}

function Failed() {
  const { t } = useTranslation();
  return (
    <Callout intent={Intent.DANGER} icon="error" role="alert">
      {t('messages.error')}
    </Callout>
  );
}

function Logs({ profileId }: { profileId: number }) {
  const { t } = useTranslation('profile');
  const date = useDateFormat();
  const logs = useInfiniteQuery({
    queryKey: profileDetailKeys.logs(profileId),
    queryFn: ({ pageParam, signal }) => listLogs(profileId, pageParam, { signal }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.has_more ? last.results.at(-1)?.id : undefined),
  });
  const entries = logs.data?.pages.flatMap((page) => page.results) ?? [];
  return (
    <Card className="studio-sidebar-card">
      <H5>{t('sidebar.logs')}</H5>
      {logs.isError && <Failed />}
      {logs.isPending && <Spinner size={20} />}
      {logs.data && entries.length === 0 && <p className="studio-muted">{t('sidebar.noLogs')}</p>}
      <ol className="studio-log" aria-label={t('sidebar.logs')}>
        {entries.map((entry) => (
          <li key={entry.id}>
            <div>{entry.message}</div>
            <div className="studio-muted">
              {date(entry.created_at)} ·{' '}
              {entry.actor ? t('sidebar.by', { name: entry.actor.name }) : t('sidebar.system')}
            </div>
          </li>
        ))}
      </ol>
      {logs.hasNextPage && (
        <Button
          variant="minimal"
          fill
          text={t('sidebar.loadMore')}
          loading={logs.isFetchingNextPage}
          onClick={() => logs.fetchNextPage()}
        />
      )}
    </Card>
  );
}

function Notes({ profileId }: { profileId: number }) {
  const { t } = useTranslation('profile');
  const date = useDateFormat();
  const notes = useQuery({
    queryKey: profileDetailKeys.notes(profileId),
    queryFn: ({ signal }) => listNotes(profileId, { signal }),
  });
  return (
    <Card className="studio-sidebar-card">
      <H5>{t('sidebar.notes')}</H5>
      {notes.isError && <Failed />}
      {notes.isPending && <Spinner size={20} />}
      {notes.data?.length === 0 && <p className="studio-muted">{t('sidebar.noNotes')}</p>}
      <ul className="studio-log">
        {notes.data?.map((note) => (
          <li key={note.id}>
            <div>{note.note}</div>
            <div className="studio-muted">
              {date(note.created_at)}
              {note.author && ` · ${t('sidebar.by', { name: note.author.name })}`}
              {note.kind === 'agent' && ` · ${t('sidebar.agentNote')}`}
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}

const DEVICE_FIELDS = [
  'brand',
  'model',
  'carrier',
  'os',
  'osVersion',
  'sdkVersion',
  'browser',
  'useragent',
] as const;

function Devices({ profileId }: { profileId: number }) {
  const { t } = useTranslation('profile');
  const devices = useQuery({
    queryKey: profileDetailKeys.devices(profileId),
    queryFn: ({ signal }) => listDevices(profileId, { signal }),
  });
  return (
    <Card className="studio-sidebar-card">
      <H5>{t('sidebar.devices')}</H5>
      {devices.isError && <Failed />}
      {devices.isPending && <Spinner size={20} />}
      {devices.data?.length === 0 && <p className="studio-muted">{t('sidebar.noDevices')}</p>}
      {devices.data?.map((device) => (
        <dl key={device.id} className="studio-fields studio-fields-compact">
          {DEVICE_FIELDS.filter((field) => device[field]).map((field) => (
            <div key={field} className="studio-field">
              <dt>{t(`device.${field}`)}</dt>
              <dd>{device[field]}</dd>
            </div>
          ))}
        </dl>
      ))}
    </Card>
  );
}
