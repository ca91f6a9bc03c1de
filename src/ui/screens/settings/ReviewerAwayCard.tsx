import { Callout, Card, H4, Intent, Spinner, Switch } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../services/api/http';
import { listReviewers } from '../../../services/api/review';
import { reviewAdminKeys, setReviewer } from '../../../services/api/reviewAdmin';
import { hasPermission } from '../../../services/permissions';
import { useActiveAccount } from '../../app/useAccounts';
import { showError, showSuccess } from '../../toaster';

/**
 * A reviewer's own "Away from the desk": while away, auto-assignment passes them by. Shown to users
 * with review_profiles; the switch changes only on the server's answer.
 */
export function ReviewerAwayCard() {
  const account = useActiveAccount();
  if (!account || !hasPermission(account, 'review_profiles')) return null;
  return <AwaySwitch userId={account.id} companyId={account.company_id} />;
}

function AwaySwitch({ userId, companyId }: { userId: number; companyId: number }) {
  const { t } = useTranslation('reviewAdmin');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const key = [...reviewAdminKeys.reviewers, companyId];
  const reviewers = useQuery({ queryKey: key, queryFn: ({ signal }) => listReviewers({ signal }) });
  const me = reviewers.data?.find((r) => r.user === userId);
  const save = useMutation({
    mutationFn: (away: boolean) => setReviewer(userId, { away }),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: reviewAdminKeys.reviewers });
      void showSuccess(answer.away ? t('away.nowAway') : t('away.nowBack'));
    },
    onError: (error) => void showError(isApiError(error) ? error.detail : tc('messages.error')),
  });
  return (
    <Card className="studio-settings-card">
      <H4>{t('away.title')}</H4>
      <p>{t('away.body')}</p>
      {reviewers.isPending && <Spinner size={24} aria-label={t('away.title')} />}
      {reviewers.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {t('away.loadFailed')}
        </Callout>
      )}
      {reviewers.data && !me && <p>{t('away.notReviewer')}</p>}
      {me && (
        <Switch
          label={t('away.label')}
          checked={me.away}
          disabled={save.isPending}
          onChange={(event) => save.mutate(event.currentTarget.checked)}
        />
      )}
    </Card>
  );
}
