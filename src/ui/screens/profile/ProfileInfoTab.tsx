import { Button, H4, H5, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Profile } from '#contract/profiles';
import { getNvi, sidebarKeys } from '../../../services/api/profileDetail';
import { useProfileLabels } from '../../components/profileLabels';
import { StructuredFields } from '../../components/StructuredFields';
import { useFormat } from '../../format';
import { EditProfileDialog } from './EditProfileDialog';

/** Profile Info (docs/product/entities.md#customer-profile). */
export function ProfileInfoTab({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const [editing, setEditing] = useState(false);
  const labels = useProfileLabels();
  const date = useFormat().dateTime;
  const day = useFormat().day;
  const none = t('info.none');
  const address = [profile.address.street, profile.address.city, profile.address.province]
    .filter(Boolean)
    .join(', ');
  const scores = profile.risk_scores;
  const rows: [string, ReactNode][] = [
    [t('info.id'), profile.id],
    [t('info.idCardNumber'), profile.id_card_number],
    [t('info.name'), profile.name ?? none],
    [t('info.gender'), profile.gender ? labels.gender(profile.gender) : none],
    [t('info.email'), profile.email ?? none],
    [t('info.phone'), profile.phone ?? none],
    [t('info.nationality'), profile.nationality ? labels.country(profile.nationality) : none],
    [t('info.dateOfBirth'), profile.date_of_birth ? day(profile.date_of_birth) : none],
    [t('info.address'), address || none],
    [t('info.source'), profile.source],
    [t('info.created'), date(profile.created_at)],
    [t('info.updated'), date(profile.updated_at)],
    [t('info.lastStatus'), profile.last_status_date ? date(profile.last_status_date) : none],
    [t('info.aliases'), profile.aliases.length ? profile.aliases.join(', ') : none],
    [
      t('info.riskScores'),
      scores
        ? `${t('info.phoneScore')} ${scores.phone ?? none} · ${t('info.emailScore')} ${scores.email ?? none} · ${t('info.ipScore')} ${scores.ip ?? none}`
        : none,
    ],
  ];
  if (profile.reject_reason) rows.push([t('info.rejectReason'), profile.reject_reason]);
  return (
    <section aria-labelledby="profile-info-title">
      <div className="studio-section-title">
        <H4 id="profile-info-title">{t('info.title')}</H4>
        <Button icon="edit" text={t('edit.open')} onClick={() => setEditing(true)} />
      </div>
      {editing && <EditProfileDialog profile={profile} isOpen onClose={() => setEditing(false)} />}
      <dl className="studio-fields">
        {rows.map(([label, value]) => (
          <div key={label} className="studio-field">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <GovernmentCheck profileId={profile.id} />
    </section>
  );
}

/** The government-check data (GET /profile/{id}/nvi) as labelled fields. */
function GovernmentCheck({ profileId }: { profileId: number }) {
  const { t } = useTranslation('profile');
  const { t: tf } = useTranslation('fields');
  const nvi = useQuery({
    queryKey: sidebarKeys.nvi(profileId),
    queryFn: ({ signal }) => getNvi(profileId, { signal }),
  });
  const data = nvi.data?.extra_data ?? {};
  const empty = Object.keys(data).length === 0;
  return (
    <section aria-labelledby="profile-nvi-title" className="studio-profile-nvi">
      <H5 id="profile-nvi-title">{t('info.government')}</H5>
      {nvi.isPending && <Spinner size={20} />}
      {nvi.isError && <p className="studio-muted">{tf('loadFailed')}</p>}
      {nvi.data && empty && <p className="studio-muted">{t('info.noGovernment')}</p>}
      {!empty && <StructuredFields data={data} />}
    </section>
  );
}
