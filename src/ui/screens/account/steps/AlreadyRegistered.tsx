import { Button, Callout, Classes, Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { clearSignup } from '../../../../services/signupStore';
import type { Send } from './shared';

/** The address already has an account: sign in, reset the password, or start over. */
export function AlreadyRegistered({ email, send }: { email: string; send: Send }) {
  const { t } = useTranslation('signup');
  const query = `?email=${encodeURIComponent(email)}`;
  return (
    <div>
      <Callout
        intent={Intent.PRIMARY}
        icon="info-sign"
        title={t('registered.title')}
        className="studio-auth-callout"
      >
        {t('registered.body', { email })}
      </Callout>
      <div className="studio-signup-choices">
        <Link
          href={`~/login${query}`}
          className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY}`}
          onClick={clearSignup}
        >
          {t('registered.signIn')}
        </Link>
        <Link href={`~/reset-password${query}`} className={Classes.BUTTON} onClick={clearSignup}>
          {t('registered.reset')}
        </Link>
        <Button variant="minimal" text={t('startOver')} onClick={() => send({ type: 'restart' })} />
      </div>
    </div>
  );
}
