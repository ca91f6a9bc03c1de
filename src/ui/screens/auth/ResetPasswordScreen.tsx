import 'virtual:blueprint-pages.css';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { showSuccess } from '../../toaster';
import { AuthLayout } from './AuthLayout';
import { PasswordResetForm } from './PasswordResetForm';

/**
 * /reset-password (docs/product/validation.md, docs/product/api.md): a code by e-mail, then a new password; back to sign-in when done. An invitation
 * link carries its code: the page is then the new user's "Set your password".
 */
export function ResetPasswordScreen() {
  const { t } = useTranslation('auth');
  const { t: ts } = useTranslation('screens');
  const { t: tc } = useTranslation();
  const [, navigate] = useLocation();
  const query = new URLSearchParams(useSearch());
  const email = query.get('email') ?? '';
  // An invitation link carries its code: the form then asks only for the new password.
  const code = /^\d{6}$/.test(query.get('code') ?? '') ? (query.get('code') as string) : '';
  const done = useCallback(
    (address: string) => {
      void showSuccess(tc('success.passwordChanged'));
      navigate(`~/login?email=${encodeURIComponent(address)}`, { replace: true });
    },
    [navigate, tc],
  );
  return (
    <AuthLayout title={code ? t('invitation.title') : ts('resetPassword.title')}>
      <PasswordResetForm email={email} code={code} invitation={!!code} onDone={done} />
      <div className="studio-auth-links">
        <Link href="~/login">{t('reset.backToLogin')}</Link>
      </div>
    </AuthLayout>
  );
}
