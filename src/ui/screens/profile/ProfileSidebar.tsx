import { Button, Callout, Card, H5, Intent, Spinner } from '@blueprintjs/core';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeProfileLog } from '#contract/logText';
import { isApiError } from '../../../services/api/http';
import { listDevices, listNotes, profileDetailKeys } from '../../../services/api/profileDetail';
import { addNote, askSummary, contactSupport } from '../../../services/api/profileWrites';
import { useActiveAccount } from '../../app/useAccounts';
import { TextForm } from '../../components/TextForm';
import { useLogReader } from '../../components/useLogReader';
import { useFormat } from '../../format';
import { profileLogsQuery } from '../../queries';
import { showError, showSuccess } from '../../toaster';
import { MentionTextArea } from './MentionTextArea';
import { Checklists, DocumentList } from './SidebarLists';
import { useAfterFirstPaint } from './useAfterFirstPaint';

/** Notes and feedback: 10 to 200 characters; questions and help-desk messages: at least 10 (docs/product/validation.md, docs/product/constants.md). */
const NOTE_LENGTH = { min: 10, max: 200 };
const MESSAGE_MIN = 10;

/** Shows the server's detail (or the generic message) and rethrows, so the form keeps what was typed. */
function useReportFailure() {
  const { t } = useTranslation();
  return (error: unknown): never => {
    void showError(isApiError(error) && error.detail ? error.detail : t('messages.error'));
    throw error;
  };
}

/**
 * The profile sidebar (docs/product/screens.md): check lists, logs (20 a page, load more with after_id), notes, document lists
 * (archive, other documents, BioLogin, BioPay only with the biopay service), Ask AI, device data, help desk.
 */
export function ProfileSidebar({ profileId, bioPay }: { profileId: number; bioPay: boolean }) {
  const { t } = useTranslation('profile');
  // The cards under the check lists and logs are below the fold and start with spinners: they come one frame
  // after the screen's first paint, which then renders and lays out less (their text areas measure themselves
  // as they mount, forcing a layout of the whole page). They are added at the end, so nothing moves.
  const rest = useAfterFirstPaint();
  return (
    <aside className="studio-profile-sidebar" aria-label={t('sidebar.label')}>
      <Checklists profileId={profileId} />
      <Logs profileId={profileId} />
      {rest && <BelowLogs profileId={profileId} bioPay={bioPay} />}
    </aside>
  );
}

function BelowLogs({ profileId, bioPay }: { profileId: number; bioPay: boolean }) {
  const { t } = useTranslation('profile');
  return (
    <>
      <Notes profileId={profileId} />
      <DocumentList profileId={profileId} title={t('sidebar.archive')} filter={{ archived: true }} />
      <DocumentList
        profileId={profileId}
        title={t('sidebar.otherDocuments')}
        filter={{ archived: false }}
        only={(document) => document.document_class === 'OT'}
      />
      <DocumentList
        profileId={profileId}
        title={t('sidebar.bioLogin')}
        filter={{ upload_source: 'biologin' }}
      />
      {bioPay && (
        <DocumentList
          profileId={profileId}
          title={t('sidebar.bioPay')}
          filter={{ upload_source: 'biopay' }}
        />
      )}
      <AskAi profileId={profileId} />
      <Devices profileId={profileId} />
      <HelpDesk />
    </>
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
  const reader = useLogReader();
  const date = useFormat().dateTime;
  const logs = useInfiniteQuery(profileLogsQuery(profileId));
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
            <div>{describeProfileLog(reader, entry.action, entry.data)}</div>
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
  const { t: tc } = useTranslation();
  const date = useFormat().dateTime;
  const queryClient = useQueryClient();
  const reportFailure = useReportFailure();
  const notes = useQuery({
    queryKey: profileDetailKeys.notes(profileId),
    queryFn: ({ signal }) => listNotes(profileId, { signal }),
  });
  const add = (note: string) =>
    addNote(profileId, note).then(() => {
      void showSuccess(tc('messages.success'));
      void queryClient.invalidateQueries({ queryKey: profileDetailKeys.notes(profileId) });
      void queryClient.invalidateQueries({ queryKey: profileDetailKeys.logs(profileId) });
    }, reportFailure);
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
      <TextForm
        label={t('notes.label')}
        placeholder={t('notes.placeholder')}
        submitText={t('notes.add')}
        {...NOTE_LENGTH}
        counter={(count) => t('notes.count', { count })}
        onSubmit={add}
        input={MentionTextArea}
      />
    </Card>
  );
}

function AskAi({ profileId }: { profileId: number }) {
  const { t } = useTranslation('profile');
  const reportFailure = useReportFailure();
  const [summary, setSummary] = useState<string | null>(null);
  return (
    <Card className="studio-sidebar-card">
      <H5>{t('ai.title')}</H5>
      <TextForm
        label={t('ai.label')}
        placeholder={t('ai.placeholder')}
        submitText={t('ai.ask')}
        min={MESSAGE_MIN}
        onSubmit={(question) =>
          askSummary(profileId, question).then((answer) => setSummary(answer.summary), reportFailure)
        }
      />
      {summary && (
        <Callout icon="manual" title={t('ai.answer')} className="studio-ai-answer" role="status">
          {summary}
        </Callout>
      )}
    </Card>
  );
}

function HelpDesk() {
  const { t } = useTranslation('profile');
  const account = useActiveAccount();
  const reportFailure = useReportFailure();
  const send = (message: string) =>
    contactSupport({ email: account?.email ?? '', message, page: window.location.pathname }).then(
      () => void showSuccess(t('helpDesk.sent')),
      reportFailure,
    );
  return (
    <Card className="studio-sidebar-card">
      <H5>{t('helpDesk.title')}</H5>
      <TextForm
        label={t('helpDesk.label')}
        placeholder={t('helpDesk.placeholder')}
        submitText={t('helpDesk.send')}
        min={MESSAGE_MIN}
        onSubmit={send}
      />
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
