import { Button, Card, H3, HTMLTable, InputGroup, Spinner } from '@blueprintjs/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { type RefObject, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { CallAnswer } from '../../../contract/videocalls';
import type { callMachine } from '../../../machines/call.machine';
import { isApiError } from '../../../services/api/http';
import { getProfile, profileDetailKeys } from '../../../services/api/profileDetail';
import {
  addCallNote,
  answerCallQuestion,
  callKeys,
  getCallQuestions,
} from '../../../services/api/videocalls';
import { TextForm } from '../../components/TextForm';
import { showError, showSuccess } from '../../toaster';
import { IdSnapshot } from './IdSnapshot';

type CallRef = ActorRefFrom<typeof callMachine>;

/** Beside the video: the customer's profile, the call questions, notes and the ID snapshot. */
export function CallSidebar({
  call,
  remoteVideo,
}: {
  call: CallRef;
  remoteVideo: RefObject<HTMLVideoElement | null>;
}) {
  const { call: queued } = useSelector(call, (s) => s.context);
  const answered = useSelector(call, (s) => s.context.room !== null);
  return (
    <aside className="studio-call-side">
      <ProfileCard profileId={queued.profile} />
      {answered && (
        <>
          <IdSnapshot profileId={queued.profile} remoteVideo={remoteVideo} />
          <Questions callId={queued.call_id} />
          <Notes callId={queued.call_id} />
        </>
      )}
    </aside>
  );
}

function ProfileCard({ profileId }: { profileId: number }) {
  const { t } = useTranslation('profile');
  const profile = useQuery({
    queryKey: profileDetailKeys.profile(profileId),
    queryFn: ({ signal }) => getProfile(profileId, { signal }),
  });
  if (!profile.data) return <Card>{profile.isError ? null : <Spinner size={20} />}</Card>;
  const p = profile.data;
  const rows: [string, string | null][] = [
    [t('info.idCardNumber'), p.id_card_number],
    [t('info.dateOfBirth'), p.date_of_birth],
    [t('info.nationality'), p.nationality],
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

function Questions({ callId }: { callId: number }) {
  const { t, i18n } = useTranslation('calls');
  const lang = i18n.language.startsWith('tr') ? 'TR' : 'EN';
  const questions = useQuery({
    queryKey: callKeys.questions(callId, lang),
    queryFn: ({ signal }) => getCallQuestions(callId, lang, { signal }),
  });
  return (
    <Card>
      <H3>{t('questions.title')}</H3>
      {questions.isPending && <Spinner size={20} />}
      {questions.data?.length === 0 && <p className="studio-muted">{t('questions.empty')}</p>}
      <ol className="studio-call-questions">
        {questions.data?.map((q) => (
          <li key={q.id}>
            <QuestionAnswer callId={callId} questionId={q.id} question={q.question} />
          </li>
        ))}
      </ol>
    </Card>
  );
}

function QuestionAnswer({
  callId,
  questionId,
  question,
}: {
  callId: number;
  questionId: number;
  question: string;
}) {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const [value, setValue] = useState('');
  const save = useMutation({
    mutationFn: () => answerCallQuestion(callId, questionId, value.trim()),
    onError: (error) => void showError(isApiError(error) ? error.detail : tc('messages.error')),
  });
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
        onChange={(event) => setValue(event.target.value)}
        rightElement={
          <Button
            type="submit"
            variant="minimal"
            icon={save.isSuccess ? 'tick' : 'floppy-disk'}
            loading={save.isPending}
            disabled={!value.trim()}
            aria-label={t('questions.save')}
          />
        }
      />
      {save.isSuccess && <small className="studio-muted">{t('questions.saved')}</small>}
    </form>
  );
}

function Notes({ callId }: { callId: number }) {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const [saved, setSaved] = useState<CallAnswer[]>([]);
  return (
    <Card>
      <H3>{t('notes.title')}</H3>
      {saved.length === 0 ? (
        <p className="studio-muted">{t('notes.empty')}</p>
      ) : (
        <ul className="studio-call-notes">
          {saved.map((entry) => (
            <li key={entry.id}>{entry.note}</li>
          ))}
        </ul>
      )}
      <TextForm
        label={t('notes.placeholder')}
        placeholder={t('notes.placeholder')}
        submitText={t('notes.add')}
        min={NOTE_MIN}
        max={NOTE_MAX}
        onSubmit={async (note) => {
          try {
            const entry = await addCallNote(callId, note);
            setSaved((list) => [...list, entry]);
            void showSuccess(t('notes.saved'));
          } catch (error) {
            void showError(isApiError(error) ? error.detail : tc('messages.error'));
            throw error;
          }
        }}
      />
    </Card>
  );
}

/** §5: notes are 10 to 200 characters. */
const NOTE_MIN = 10;
const NOTE_MAX = 200;
