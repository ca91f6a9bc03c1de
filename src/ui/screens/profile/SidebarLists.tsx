import { Button, ButtonGroup, Card, Classes, H5, H6, Spinner } from '@blueprintjs/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { localized } from '#contract/logText';
import type { ChecklistGroup } from '#contract/notes';
import type { Profile } from '#contract/profiles';
import { PROFILE_FIELDS } from '../../../machines/versionConflict';
import { isApiError } from '../../../services/api/http';
import {
  answerChecklist,
  type DocumentFilter,
  listDocuments,
  profileDetailKeys,
  sidebarKeys,
} from '../../../services/api/profileDetail';
import { ConflictDialog } from '../../components/ConflictDialog';
import { useConflict } from '../../components/useConflict';
import { useFormat } from '../../format';
import { profileChecklistsQuery } from '../../queries';
import { showError } from '../../toaster';
import { useProfileValueFormat } from './useProfileValueFormat';

/** Check Lists (profile sidebar): each question answered yes or no, with a note, saved per question. */
export function Checklists({ profileId }: { profileId: number }) {
  const { t, i18n } = useTranslation('profile');
  const groups = useQuery(profileChecklistsQuery(profileId));
  return (
    <Card className="studio-sidebar-card">
      <H5>{t('sidebar.checklists')}</H5>
      {groups.isPending && <Spinner size={20} />}
      {groups.data?.length === 0 && <p className="studio-muted">{t('sidebar.noChecklists')}</p>}
      {groups.data?.map((group) => (
        <section key={group.id} aria-label={localized(group.texts, i18n.language)}>
          <H6>{localized(group.texts, i18n.language)}</H6>
          <ul className="studio-log">
            {[...group.questions]
              .sort((a, b) => a.sort_order - b.sort_order)
              .map((question) => (
                <ChecklistQuestion key={question.id} profileId={profileId} question={question} />
              ))}
          </ul>
        </section>
      ))}
    </Card>
  );
}

function ChecklistQuestion({
  profileId,
  question,
}: {
  profileId: number;
  question: ChecklistGroup['questions'][number];
}) {
  const { t, i18n } = useTranslation('profile');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [note, setNote] = useState(question.note ?? '');
  const [busy, setBusy] = useState(false);
  const { t: tp } = useTranslation('presence');
  const format = useProfileValueFormat();
  const failed = (error: unknown) =>
    void showError(isApiError(error) && error.detail ? error.detail : tc('messages.error'));
  // Answers carry the profile's version; a conflict shows what changed and keeps the typed note.
  const conflict = useConflict(PROFILE_FIELDS, {
    onDiscarded: () => {
      void queryClient.invalidateQueries({ queryKey: profileDetailKeys.profile(profileId) });
      void queryClient.invalidateQueries({ queryKey: sidebarKeys.checklists(profileId) });
    },
    onError: failed,
  });
  const save = async (value: boolean | null) => {
    const answer = value ?? question.answer;
    if (answer === null) return;
    const profile = queryClient.getQueryData<Profile>(profileDetailKeys.profile(profileId));
    if (!profile) return;
    setBusy(true);
    try {
      await conflict.attempt(
        profile,
        {},
        (version) =>
          answerChecklist(
            profileId,
            { question: question.id, value: answer, note: note.trim() || null },
            version,
          ),
        () => {
          // The answer moved the profile's version by one: a next answer must not conflict with this one.
          queryClient.setQueryData<Profile>(profileDetailKeys.profile(profileId), (cached) =>
            cached && cached.version === profile.version
              ? { ...cached, version: profile.version + 1 }
              : cached,
          );
          void queryClient.invalidateQueries({ queryKey: sidebarKeys.checklists(profileId) });
          void queryClient.invalidateQueries({ queryKey: profileDetailKeys.profile(profileId) });
        },
      );
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
    }
  };
  const noteDisabled = question.answer === null || busy;
  return (
    <li className="studio-checklist-question">
      <div>{localized(question.texts, i18n.language)}</div>
      <div className="studio-checklist-answer">
        <ButtonGroup>
          <Button
            size="small"
            text={t('sidebar.yes')}
            active={question.answer === true}
            disabled={busy}
            aria-pressed={question.answer === true}
            onClick={() => save(true)}
          />
          <Button
            size="small"
            text={t('sidebar.no')}
            active={question.answer === false}
            disabled={busy}
            aria-pressed={question.answer === false}
            onClick={() => save(false)}
          />
        </ButtonGroup>
        {/* Blueprint's InputGroup markup without the component, which measures its (here absent) side
            elements when it mounts and sets state there: a synchronous second render, once per question,
            which makes React run all of the profile screen's effects and requests before its first paint. */}
        <div
          className={`${Classes.INPUT_GROUP} ${Classes.SMALL} studio-checklist-note${noteDisabled ? ` ${Classes.DISABLED}` : ''}`}
        >
          <input
            type="text"
            className={Classes.INPUT}
            aria-label={t('sidebar.answerNote')}
            placeholder={t('sidebar.answerNote')}
            value={note}
            maxLength={200}
            disabled={noteDisabled}
            aria-disabled={noteDisabled}
            onChange={(event) => setNote(event.currentTarget.value)}
            onBlur={() => note.trim() !== (question.note ?? '') && save(null)}
            onKeyDown={(event) => event.key === 'Enter' && save(null)}
          />
        </div>
      </div>
      <ConflictDialog {...conflict.dialog} subject={tp('conflict.profile')} format={format} />
    </li>
  );
}

/** A list of the profile's documents (Archive, Other Documents, BioLogin, BioPay). */
export function DocumentList({
  profileId,
  title,
  filter,
  only,
}: {
  profileId: number;
  title: string;
  filter: DocumentFilter;
  /** Keep only some of the listed documents (e.g. the "other" class). */
  only?: (document: { document_class: string }) => boolean;
}) {
  const { t } = useTranslation('profile');
  const date = useFormat().date;
  const documents = useQuery({
    queryKey: sidebarKeys.documents(profileId, filter),
    queryFn: ({ signal }) => listDocuments(profileId, filter, { signal }),
  });
  const shown = documents.data?.filter((document) => !only || only(document)) ?? [];
  return (
    <Card className="studio-sidebar-card">
      <H5>{title}</H5>
      {documents.isPending && <Spinner size={20} />}
      {documents.data && shown.length === 0 && <p className="studio-muted">{t('sidebar.noDocuments')}</p>}
      <ul className="studio-log" aria-label={title}>
        {shown.map((document) => (
          <li key={document.id}>
            <Link href={`~/profile/${profileId}/document/${document.id}`}>
              {document.type?.name ?? t(`documentClass.${document.document_class}`)}
            </Link>
            <div className="studio-muted">
              {t(`documentClass.${document.document_class}`)} · {date(document.created_at)}
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}
