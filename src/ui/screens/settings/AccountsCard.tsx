import { Button, Card, H4, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { type Account, accountKey, accounts } from '../../../services/accounts';
import { useActiveAccount, useStoredAccounts } from '../../app/useAccounts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { showSuccess } from '../../toaster';

/** The accounts stored in this browser (several accounts may be stored): switch to one, or remove one. */
export function AccountsCard() {
  const { t } = useTranslation('admin', { keyPrefix: 'settings' });
  const { t: tc } = useTranslation();
  const [, navigate] = useLocation();
  const active = useActiveAccount();
  const stored = useStoredAccounts();
  const [removing, setRemoving] = useState<Account | null>(null);
  const activeKey = active ? accountKey(active) : null;
  return (
    <Card className="studio-settings-card">
      <H4>{t('accounts.title')}</H4>
      <HTMLTable compact className="studio-table" aria-label={t('accounts.title')}>
        <thead>
          <tr>
            <th scope="col">{t('accounts.email')}</th>
            <th scope="col">{t('accounts.server')}</th>
            <th scope="col">{t('accounts.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {stored.map((account) => {
            const key = accountKey(account);
            const isActive = key === activeKey;
            return (
              <tr key={key}>
                <td>
                  {account.email}{' '}
                  {isActive && (
                    <Tag minimal intent={Intent.PRIMARY}>
                      {t('accounts.active')}
                    </Tag>
                  )}
                </td>
                <td>{account.server}</td>
                <td>
                  {!isActive && (
                    <>
                      <Button
                        variant="minimal"
                        icon="swap-horizontal"
                        text={t('accounts.switch')}
                        disabled={!account.access}
                        onClick={() => {
                          if (!accounts.switchTo(key)) return;
                          navigate('~/');
                          void showSuccess(tc('shell.account.switched', { email: account.email }));
                        }}
                      />
                      <Button
                        variant="minimal"
                        icon="trash"
                        intent={Intent.DANGER}
                        text={t('accounts.remove')}
                        onClick={() => setRemoving(account)}
                      />
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
      <ConfirmDialog
        isOpen={removing !== null}
        title={t('accounts.remove')}
        icon="trash"
        cancel={t('accounts.cancel')}
        confirm={t('accounts.remove')}
        onConfirm={() => {
          if (removing) accounts.forget(accountKey(removing));
          setRemoving(null);
        }}
        onClose={() => setRemoving(null)}
      >
        <p>{t('accounts.removeBody', { email: removing?.email ?? '' })}</p>
      </ConfirmDialog>
    </Card>
  );
}
