import { Card, H5, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { AmlMatch } from '#contract/amlMatch';
import { readRecord } from '../../../../machines/amlRecords';
import { useAmlFormat } from './amlFormat';

/** One AML record: the listed person, lists, score and matched fields; with `explain`, how the score was built. */
export function AmlRecordCard({
  record,
  explain = false,
}: {
  record: Record<string, unknown>;
  explain?: boolean;
}) {
  const { t } = useTranslation('aml');
  const view = readRecord(record);
  const name = view.name ?? '—';
  const rows: [string, React.ReactNode][] = [];
  if (view.matchedName) rows.push([t('records.matchedName'), view.matchedName]);
  rows.push([t('records.lists'), view.lists.length > 0 ? view.lists.join(', ') : '—']);
  if (view.programs.length > 0) rows.push([t('records.programs'), view.programs.join(', ')]);
  if (view.match)
    rows.push([
      t('records.matchedFields'),
      <span className="studio-aml-tags" key="fields">
        {view.matchedFields.map((field) => (
          <Tag key={field} minimal intent={Intent.WARNING}>
            {t(`fields.${field}`)}
          </Tag>
        ))}
      </span>,
    ]);
  for (const [key, value] of view.extra) rows.push([key, value]);
  return (
    <Card compact className="studio-aml-record" role="group" aria-label={t('records.label', { name })}>
      <div className="studio-section-title">
        <H5>{name}</H5>
        {view.score !== null && (
          <Tag intent={Intent.DANGER} round>
            {t('records.score')} {view.score}
          </Tag>
        )}
      </div>
      <dl className="studio-fields">
        {rows.map(([label, value]) => (
          <div key={label} className="studio-field">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {!view.match && <p className="studio-muted">{t('records.noExplanation')}</p>}
      {explain && view.match && <Explanation match={view.match} />}
    </Card>
  );
}

function Explanation({ match }: { match: AmlMatch }) {
  const subject = match.subject;
  const { t } = useTranslation('aml');
  const format = useAmlFormat();
  const unknown = t('detail.unknown');
  const listedDates = match.birth_date.listed.map(format.birthDate).join(', ') || t('detail.none');
  const listedCountries = match.nationality.listed.map(format.country).join(', ') || t('detail.none');
  return (
    <div className="studio-aml-explanation">
      <H5>{t('detail.explanation')}</H5>
      <HTMLTable compact className="studio-table" aria-label={t('detail.explanation')}>
        <tbody>
          <tr>
            <th scope="row">{t('detail.nameScore')}</th>
            <td>{[subject.name, match.matched_name].join(' ~ ')}</td>
            <td className="studio-number">{match.name_score}</td>
          </tr>
          <tr>
            <th scope="row">{t('fields.birth_date')}</th>
            <td>
              {t(`detail.birth.${match.birth_date.result}`)} ·{' '}
              {subject.birth_date ? format.birthDate(subject.birth_date) : unknown} /{' '}
              {t('detail.listedBirthDates')}: {listedDates}
            </td>
            <td className="studio-number">{format.points(match.birth_date.points)}</td>
          </tr>
          <tr>
            <th scope="row">{t('fields.nationality')}</th>
            <td>
              {t(`detail.nation.${match.nationality.result}`)} ·{' '}
              {subject.nationality ? format.country(subject.nationality) : unknown} /{' '}
              {t('detail.listedNationalities')}: {listedCountries}
            </td>
            <td className="studio-number">{format.points(match.nationality.points)}</td>
          </tr>
          <tr>
            <th scope="row">{t('detail.total')}</th>
            <td />
            <td className="studio-number">
              <strong>{match.score}</strong>
            </td>
          </tr>
        </tbody>
      </HTMLTable>
      <HTMLTable compact striped className="studio-table" aria-label={t('detail.tokens')}>
        <caption className="studio-muted">{t('detail.tokens')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('detail.tokenCustomer')}</th>
            <th scope="col">{t('detail.tokenListed')}</th>
            <th scope="col" className="studio-number">
              {t('detail.tokenSimilarity')}
            </th>
          </tr>
        </thead>
        <tbody>
          {match.name_tokens.map((pair) => (
            <tr key={`${pair.subject}-${pair.listed}`}>
              <td>{pair.subject}</td>
              <td>{pair.listed}</td>
              <td className="studio-number">{format.percent(pair.similarity)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
