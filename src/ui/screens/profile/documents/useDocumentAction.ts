import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { documentKeys } from '../../../../services/api/documents';
import { isApiError } from '../../../../services/api/http';
import { showError, showSuccess } from '../../../toaster';

/** The message of a failed document action (§6, §8): a 403 has its own text; otherwise the server's detail. */
export function useFailureText() {
  const { t: tc } = useTranslation();
  return (error: unknown) =>
    isApiError(error) && error.status === 403
      ? tc('messages.noPermission')
      : isApiError(error) && error.detail
        ? error.detail
        : tc('messages.error');
}

/**
 * Runs one document action: on success shows its §8 message and refreshes the profile's documents and
 * logs; on failure shows the failure text. Answers whether it succeeded (dialogs stay open otherwise).
 */
export function useDocumentAction(profileId: number) {
  const queryClient = useQueryClient();
  const failureText = useFailureText();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (name: string, action: () => Promise<unknown>, success: string): Promise<boolean> => {
    setBusy(name);
    try {
      await action();
      void showSuccess(success);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: documentKeys.all(profileId) }),
        queryClient.invalidateQueries({ queryKey: documentKeys.logs(profileId) }),
      ]);
      return true;
    } catch (error) {
      void showError(failureText(error));
      return false;
    } finally {
      setBusy(null);
    }
  };
  return { run, busy };
}
