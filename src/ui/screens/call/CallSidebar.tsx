import { Button, Card, H3, HTMLTable, InputGroup, Spinner } from '@blueprintjs/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { type RefObject, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { callMachine } from '../../../machines/call.machine';
import { isApiError } from '../../../services/api/http';
import { getProfile, profileDetailKeys } from '../../../services/api/profileDetail';
import {
  addCallNote,
  answerCallQuestion,
  callKeys,
  getCallQuestions,
} from '../../../services/api/videocalls';
import { useProfileLabels } from '../../components/profileLabels';
import { TextForm } from '../../components/TextForm';
import { callLang, useCallEntries } from '../../components/useCallEntries';
import { showError, showSuccess } from '../../toaster';
import { IdSnapshot } from './IdSnapshot';
import { StepsPanel, type StepsRef } from './StepsPanel';

type CallRef = ActorRefFrom<typeof callMachine>;

/**
 * Beside the video: the customer's profile, the call questions, notes and the ID snapshot. What was saved comes
 * from the server (it stays through a language change and a move away and back); once the call is closed they
 * are read-only.
 */
export function CallSidebar({
  call,
  remoteVideo,
  steps,
}: {
  call: CallRef;
  remoteVideo: RefObject<HTMLVideoElement | null>;
  /** The guided procedure's steps, null when the company's procedure is not guided. */
  steps: StepsRef | null;
}) {
  const { call: queued } = useSelector(call, (s) => s.context);
  const answered = useSelector(call, (s) => s.context.room !== null);
  const live = useSelector(call, (s) => s.hasTag('live'));
  const closed = useSelector(call, (s) => s.status !== 'active' || s.matches('done'));
  return (
    <aside className="studio-call-side">
      <ProfileCard profileId={queued.profile} />
      {answered && (
        <>
          {steps && <StepsPanel steps={steps} closed={closed} live={live} callId={queued.call_id} />}
          <IdSnapshot profileId={queued.profile} remoteVideo={remoteVideo} live={live} />
          <Questions callId={queued.call_id} closed={closed} />
          <Notes callId={queued.call_id} closed={closed} />
        </>
      )}
    </aside>
  );
}

function ProfileCard({ profileId }: { profileId: number }) {
  const { t } = useTranslation('profile');
  const labels = useProfileLabels();
  const profile = useQuery({
    queryKey: profileDetailKeys.profile(profileId),
    queryFn: ({ signal }) => getProfile(profileId, { signal }),
  });
  if (!profile.data) return <Card>{profile.isError ? null : <Spinner size={20} />}</Card>;
  const p = profile.data;
  const rows: [string, string | null][] = [
    [t('info.idCardNumber'), p.id_card_number],
    [t('info.dateOfBirth'), p.date_of_birth],
    [t('info.gender'), p.gender && labels.gender(p.gender)],
    [t('info.nationality'), p.nationality && labels.country(p.nationality)],
    [t('info.email'), p.email],
    [t('info.phone'), p.phone],
  ];
  return (
    <Card>
      <H3>{p.name ?? t('unnamed')}</H3>
      <HTMLTable compact className="studio-call-facts">
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{value ?? t('info.none')}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </Card>
  );
}

function Questions({ callId, closed }: { callId: number; closed: boolean }) {
  const { t, i18n } = useTranslation('calls');
  const lang = callLang(i18n.language);
  const questions = useQuery({
    queryKey: callKeys.questions(callId, lang),
    queryFn: ({ signal }) => getCallQuestions(callId, lang, { signal }),
    placeholderData: keepPreviousData,
  });
  const entries = useCallEntries(callId);
  // What is typed and not saved yet, by question: kept here, so a new language's list does not lose it.
  const [drafts, setDrafts] = useState<Record<number, string>>({});
  const saved = new Map<number, string>();
  for (const entry of entries.data ?? [])
    if (entry.question !== null && entry.value !== null) saved.set(entry.question, entry.value);
  return (
    <Card>
      <H3>{t('questions.title')}</H3>
      {questions.isPending && <Spinner size={20} />}
      {questions.data?.length === 0 && <p className="studio-muted">{t('questions.empty')}</p>}
      {closed ? (
        <dl className="studio-call-answers">
          {questions.data?.map((q) => (
            <div key={q.id}>
              <dt>{q.question}</dt>
              <dd className={saved.has(q.id) ? undefined : 'studio-muted'}>
                {saved.get(q.id) ?? t('questions.unanswered')}
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <ol className="studio-call-questions">
          {questions.data?.map((q) => (
            <li key={q.id}>
              <QuestionAnswer
                callId={callId}
                questionId={q.id}
                question={q.question}
                value={drafts[q.id] ?? saved.get(q.id) ?? ''}
                saved={saved.get(q.id)}
                onChange={(value) => setDrafts((current) => ({ ...current, [q.id]: value }))}
              />
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function QuestionAnswer({
  callId,
  questionId,
  question,
  value,
  saved,
  onChange,
}: {
  callId: number;
  questionId: number;
  question: string;
  value: string;
  saved: string | undefined;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: () => answerCallQuestion(callId, questionId, value.trim()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: callKeys.entriesOf(callId) }),
    onError: (error) => void showError(isApiError(error) ? error.detail : tc('messages.error')),
  });
  const isSaved = saved !== undefined && saved === value.trim();
  const id = `call-question-${questionId}`;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (value.trim()) save.mutate();
      }}
    >
      <label htmlFor={id}>{question}</label>
      <InputGroup
        id={id}
        value={value}
        placeholder={t('questions.placeholder')}
        onChange={(event) => onChange(event.target.value)}
        rightElement={
          <Button
            type="submit"
            variant="minimal"
            icon={isSaved ? 'tick' : 'floppy-disk'}
            loading={save.isPending}
            disabled={!value.trim()}
            aria-label={t('questions.save')}
          />
        }
      />
      {isSaved && <small className="studio-muted">{t('questions.saved')}</small>}
    </form>
  );
}

function Notes({ callId, closed }: { callId: number; closed: boolean }) {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const entries = useCallEntries(callId);
  const notes = (entries.data ?? []).filter((entry) => entry.note !== null);
  return (
    <Card>
      <H3>{t('notes.title')}</H3>
      {entries.isPending && <Spinner size={20} />}
      {entries.isSuccess && notes.length === 0 && <p className="studio-muted">{t('notes.empty')}</p>}
      {notes.length > 0 && (
        <ul className="studio-call-notes">
          {notes.map((entry) => (
            <li key={entry.id}>{entry.note}</li>
          ))}
        </ul>
      )}
      {!closed && (
        <TextForm
          label={t('notes.placeholder')}
          placeholder={t('notes.placeholder')}
          submitText={t('notes.add')}
          min={NOTE_MIN}
          max={NOTE_MAX}
          onSubmit={async (note) => {
            try {
              await addCallNote(callId, note);
              await queryClient.invalidateQueries({ queryKey: callKeys.entriesOf(callId) });
              void showSuccess(t('notes.saved'));
            } catch (error) {
              void showError(isApiError(error) ? error.detail : tc('messages.error'));
              throw error;
            }
          }}
        />
      )}
    </Card>
  );
}

/** Notes are 10 to 200 characters (docs/product/validation.md#lengths). */
const NOTE_MIN = 10;
const NOTE_MAX = 200;
