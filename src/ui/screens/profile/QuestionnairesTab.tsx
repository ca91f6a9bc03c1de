import { Callout, H4, HTMLTable, Intent, Spinner, Tag } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { localized } from '#contract/logText';
import type { QuestionnaireAnswer, QuestionnaireQuestion } from '#contract/questionnaires';
import { listAnswers, listQuestions, profileDetailKeys } from '../../../services/api/profileDetail';

/** Questionnaires: questions by sort order with this profile's answers (single, multiple, typed, skipped). */
export function QuestionnairesTab({ profileId }: { profileId: number }) {
  const { t, i18n } = useTranslation('profile');
  const { t: tc } = useTranslation();
  const questions = useQuery({
    queryKey: profileDetailKeys.questions,
    queryFn: ({ signal }) => listQuestions({ signal }),
  });
  const answers = useQuery({
    queryKey: profileDetailKeys.answers(profileId),
    queryFn: ({ signal }) => listAnswers(profileId, { signal }),
  });
  if (questions.isError || answers.isError) {
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {tc('messages.error')}
      </Callout>
    );
  }
  if (!questions.data || !answers.data) return <Spinner size={24} />;
  if (questions.data.length === 0) return <p>{t('questionnaire.empty')}</p>;
  const byQuestion = new Map(answers.data.map((answer) => [answer.question, answer]));
  const ordered = [...questions.data].sort((a, b) => a.sort_order - b.sort_order);
  return (
    <section aria-labelledby="questionnaire-title">
      <H4 id="questionnaire-title">{t('questionnaire.title')}</H4>
      <HTMLTable compact striped className="studio-table">
        <tbody>
          {ordered.map((question) => (
            <tr key={question.id}>
              <td className="studio-question-order">{question.sort_order}</td>
              <td className="studio-question-title">
                {localized(question.texts, i18n.language)}{' '}
                {question.optional && (
                  <Tag minimal round>
                    {t('questionnaire.optional')}
                  </Tag>
                )}
              </td>
              <td>
                <AnswerText question={question} answer={byQuestion.get(question.id)} />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </section>
  );
}

function AnswerText({
  question,
  answer,
}: {
  question: QuestionnaireQuestion;
  answer: QuestionnaireAnswer | undefined;
}) {
  const { t, i18n } = useTranslation('profile');
  if (!answer) return <span className="studio-muted">{t('questionnaire.notAnswered')}</span>;
  if (answer.skipped) return <Tag minimal>{t('questionnaire.skipped')}</Tag>;
  const option = (id: number) => {
    const found = question.answers.find((candidate) => candidate.id === id);
    return found ? localized(found.texts, i18n.language) : `#${id}`;
  };
  const chosen =
    question.answer_type === 'single_choice'
      ? answer.single_option_answer !== null
        ? [option(answer.single_option_answer)]
        : []
      : answer.multiple_option_answer.map(option);
  return (
    <>
      {chosen.join(', ')}
      {answer.typed_answer && (
        <div className="studio-muted">{t('questionnaire.typed', { text: answer.typed_answer })}</div>
      )}
    </>
  );
}
