import { Callout, H4, HTMLTable, Icon, InputGroup, Intent, Tag } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type BusinessEntity, ENTITY_PARTY } from '#contract/entities';
import { entityOwnership, entityParties } from '../../../machines/entityReview';
import { DEFAULT_UBO_THRESHOLD, type Ownership, type OwnershipNode } from '../../../machines/ownership';
import { useAddressQuery } from '../../app/useAddressQuery';
import { useCountryName, useEntityDate, usePercent } from '../entities/entityLabels';
import { LabeledField } from './LabeledField';
import { CheckResultTag } from './StatusTab';

/** A threshold percentage from 0.01 to 100 with at most two decimals, or null. */
export function parseThreshold(value: string | null): number | null {
  const text = value?.trim() ?? '';
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(text)) return null;
  const number = Number(text);
  return number > 0 && number <= 100 ? number : null;
}

/** Employees: the individuals with their shares, and the ownership chart down to the ultimate owners. */
export function EmployeesTab({ entity }: { entity: BusinessEntity }) {
  const { t } = useTranslation('entities');
  const [query, changeQuery] = useAddressQuery();
  const threshold = parseThreshold(query.get('threshold')) ?? DEFAULT_UBO_THRESHOLD;
  const [typed, setTyped] = useState(String(threshold));
  const outcome = useMemo(() => entityOwnership(entity, threshold), [entity, threshold]);
  const invalid = parseThreshold(typed) === null;
  const partyName = new Map(entityParties(entity).map((party) => [party.id, party.name]));

  // A valid threshold goes to the URL (the default is left out); an invalid one keeps the last valid.
  const onThreshold = (value: string) => {
    setTyped(value);
    const valid = parseThreshold(value);
    if (valid === null || valid === threshold) return;
    changeQuery((current) => {
      const next = new URLSearchParams(current);
      if (valid === DEFAULT_UBO_THRESHOLD) next.delete('threshold');
      else next.set('threshold', String(valid));
      return next;
    });
  };

  return (
    <div className="studio-entity-tab">
      <LabeledField
        label={t('employees.threshold')}
        labelFor="ubo-threshold"
        helperText={invalid ? t('employees.thresholdInvalid') : t('employees.thresholdHelp')}
        intent={invalid ? Intent.DANGER : Intent.NONE}
        inline
      >
        <InputGroup
          id="ubo-threshold"
          type="number"
          min={0.01}
          max={100}
          step={0.01}
          value={typed}
          onValueChange={onThreshold}
          rightElement={<span className="studio-entity-unit">{t('employees.percentSign')}</span>}
          intent={invalid ? Intent.DANGER : Intent.NONE}
          className="studio-entity-threshold"
        />
      </LabeledField>
      {outcome.ok ? (
        <>
          <Individuals entity={entity} ownership={outcome.ownership} />
          <section aria-labelledby="ownership-title">
            <H4 id="ownership-title">{t('chart.title')}</H4>
            {entity.ownership.length === 0 ? (
              <p className="studio-muted">{t('chart.noOwners')}</p>
            ) : (
              <ul className="studio-ownership-tree" aria-label={t('chart.title')}>
                <ChartNode node={outcome.ownership.tree} root />
              </ul>
            )}
          </section>
        </>
      ) : (
        <Callout intent={Intent.DANGER} icon="error" role="alert" title={t('chart.errorTitle')}>
          {t(`chart.error.${outcome.error.problem}`, {
            parties: outcome.error.parties.map((id) => partyName.get(id) ?? id).join(' → '),
          })}
        </Callout>
      )}
    </div>
  );
}

function Individuals({ entity, ownership }: { entity: BusinessEntity; ownership: Ownership }) {
  const { t } = useTranslation('entities');
  const country = useCountryName();
  const date = useEntityDate();
  const percent = usePercent();
  const owners = new Map(ownership.owners.map((owner) => [owner.party.id, owner]));
  return (
    <section aria-labelledby="individuals-title">
      <H4 id="individuals-title">{t('employees.title')}</H4>
      <HTMLTable compact striped className="studio-table" aria-labelledby="individuals-title">
        <thead>
          <tr>
            <th scope="col">{t('employees.name')}</th>
            <th scope="col">{t('employees.roles')}</th>
            <th scope="col">{t('employees.nationality')}</th>
            <th scope="col">{t('employees.birthDate')}</th>
            <th scope="col">{t('employees.direct')}</th>
            <th scope="col">{t('employees.effective')}</th>
            <th scope="col">{t('employees.sanctions')}</th>
          </tr>
        </thead>
        <tbody>
          {entity.individuals.map((person) => {
            const owner = owners.get(person.id);
            const direct = entity.ownership.find(
              (link) => link.owner === person.id && link.owned === ENTITY_PARTY,
            );
            const check = entity.checks.find(
              (c) => c.kind === 'sanctionsIndividual' && c.subject === person.id,
            );
            const roles = [
              ...person.roles.map((role) => t(`role.${role}`)),
              ...(owner ? [t('role.shareholder')] : []),
            ];
            return (
              <tr key={person.id}>
                <td>
                  {person.name}{' '}
                  {owner?.ubo && (
                    <Tag intent={Intent.WARNING} minimal>
                      {t('employees.ubo')}
                    </Tag>
                  )}{' '}
                  {person.pep && (
                    <Tag intent={Intent.DANGER} minimal>
                      {t('employees.pep')}
                    </Tag>
                  )}
                </td>
                <td>{roles.join(', ')}</td>
                <td>{country(person.nationality)}</td>
                <td>{date(person.birth_date)}</td>
                <td>{direct ? percent(direct.share) : t('employees.noShare')}</td>
                <td>
                  {owner ? percent(owner.effective) : t('employees.noShare')}
                  {owner && owner.layers > 0 && (
                    <div className="studio-muted">{t('employees.through', { count: owner.layers })}</div>
                  )}
                </td>
                <td>{check ? <CheckResultTag result={check.result} /> : null}</td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </section>
  );
}

function ChartNode({ node, root = false }: { node: OwnershipNode; root?: boolean }) {
  const { t } = useTranslation('entities');
  const percent = usePercent();
  const person = node.party.kind === 'person';
  return (
    <li>
      <div
        className={`studio-ownership-node${node.ubo ? ' studio-ownership-ubo' : ''}`}
        data-kind={node.party.kind}
      >
        <div className="studio-ownership-name">
          <Icon icon={person ? 'person' : 'office'} size={14} /> <strong>{node.party.name}</strong>
        </div>
        {!root && (
          <div className="studio-muted">
            {t('chart.holds', { direct: percent(node.direct), effective: percent(node.effective) })}
          </div>
        )}
        {node.ubo && (
          <Tag intent={Intent.WARNING} minimal>
            {t('employees.ubo')}
          </Tag>
        )}
      </div>
      {(node.owners.length > 0 || (!person && node.unlisted > 0)) && (
        <ul>
          {node.owners.map((owner, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: one party may own the same company once only; the index separates repeated parties in other branches.
            <ChartNode key={`${owner.party.id}-${index}`} node={owner} />
          ))}
          {!person && node.unlisted > 0 && (
            <li>
              <div className="studio-ownership-node studio-ownership-unlisted">
                {t('chart.unlisted', { share: percent(node.unlisted) })}
              </div>
            </li>
          )}
        </ul>
      )}
    </li>
  );
}
