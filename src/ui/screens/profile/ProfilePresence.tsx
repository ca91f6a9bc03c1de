import { Button, Callout, Icon, Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { ProfileViewer } from '#contract/socket';
import type { ProfileLive } from '../../app/realtime/ProfileSocket';
import './presence.css';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toLocaleUpperCase())
    .join('') || '?';

/** Who else has this profile open right now: an avatar with initials and the name of each. */
export function ProfileViewers({ viewers }: { viewers: ProfileViewer[] }) {
  const { t } = useTranslation('presence');
  if (viewers.length === 0) return null;
  return (
    <ul className="studio-presence" aria-label={t('presence.label')} data-testid="profile-presence">
      <li className="studio-presence-label" aria-hidden>
        <Icon icon="people" size={14} /> {t('presence.label')}
      </li>
      {viewers.map((viewer) => {
        const name = viewer.name || t('presence.someone');
        return (
          <li key={viewer.user_id}>
            <span className="studio-presence-viewer" title={t('presence.viewer', { name })}>
              <span className="studio-avatar" aria-hidden>
                {initials(name)}
              </span>
              <span className="studio-presence-name">{name}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** "Changed by X": the last change someone else made while this copy was open (the data is refreshed). */
export function ProfileChangeNotice({ live }: { live: ProfileLive }) {
  const { t } = useTranslation('presence');
  const { change } = live;
  if (!change) return null;
  const name = change.by.name || t('presence.someone');
  return (
    <Callout
      intent={Intent.PRIMARY}
      icon="info-sign"
      compact
      role="status"
      className="studio-change-notice"
      title={t('changed.title', { name })}
    >
      <span>{t(`changed.${change.what}`, { name })}</span>
      <Button variant="minimal" size="small" text={t('changed.dismiss')} onClick={live.dismiss} />
    </Callout>
  );
}
