import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STORAGE_QUOTA_EXCEEDED, UPLOADS_AT_ONCE, UPLOADS_TOO_FAST } from '#contract/constants';
import type { Document } from '#contract/documents';
import { DOCUMENT_FIELDS, type Wanted } from '../../../../machines/versionConflict';
import { documentKeys } from '../../../../services/api/documents';
import { isApiError } from '../../../../services/api/http';
import { useConflict } from '../../../components/useConflict';
import { showError, showSuccess } from '../../../toaster';

/** Refusals of an upload whose reason the user can act on, in the studio's language. */
const UPLOAD_REFUSALS: Record<string, 'upload.documentQuotaExceeded' | 'upload.tooFast' | 'upload.atOnce'> = {
  [STORAGE_QUOTA_EXCEEDED]: 'upload.documentQuotaExceeded',
  [UPLOADS_TOO_FAST]: 'upload.tooFast',
  [UPLOADS_AT_ONCE]: 'upload.atOnce',
};

/**
 * The message of a failed document action (docs/product/roles.md, docs/product/errors.md): a 403 has its own text, the storage quota and the upload
 * limits theirs; otherwise the server's detail.
 */
export function useFailureText() {
  const { t: tc } = useTranslation();
  return (error: unknown) => {
    if (!isApiError(error)) return tc('messages.error');
    if (error.status === 403) return tc('messages.noPermission');
    const refusal = UPLOAD_REFUSALS[error.detail];
    if (refusal) return tc(refusal);
    return error.detail || tc('messages.error');
  };
}

const isDocument = (value: unknown): value is Document =>
  typeof value === 'object' && value !== null && 'version' in value && 'pages' in value;

/**
 * Runs one document action with the document's version: on success shows its success message,
 * refreshes the profile's documents and logs and calls `after`; on failure shows the failure text. When
 * someone else changed the document meanwhile, `conflict.dialog` opens (render it with ConflictDialog):
 * re-applying runs the same action against the version there now, and calls `after` when it passes; the
 * caller's dialog (and the reason typed in it) stays open until then. Answers whether it succeeded.
 */
export function useDocumentAction(profileId: number) {
  const queryClient = useQueryClient();
  const failureText = useFailureText();
  const [busy, setBusy] = useState<string | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: documentKeys.all(profileId) }),
      queryClient.invalidateQueries({ queryKey: documentKeys.logs(profileId) }),
    ]);
  const [onDiscard, setOnDiscard] = useState<() => void>(() => () => {});
  const conflict = useConflict(DOCUMENT_FIELDS, {
    onDiscarded: () => {
      void refresh();
      onDiscard();
    },
    onError: (error) => void showError(failureText(error)),
  });
  const run = async (
    name: string,
    document: Document,
    wanted: Wanted,
    action: (version: number) => Promise<unknown>,
    success: string,
    after: () => void = () => {},
  ): Promise<boolean> => {
    setBusy(name);
    setOnDiscard(() => after);
    try {
      return await conflict.attempt(
        document,
        wanted,
        (version) => action(version),
        (result) => {
          // The next action on this document must carry the new version even before the lists reload (a
          // reviewer's own writes never conflict with each other): the answered document, or for an alert
          // override (which answers the alert) the version it bumped.
          const next = isDocument(result) ? result : null;
          queryClient.setQueriesData<Document[]>({ queryKey: documentKeys.all(profileId) }, (list) =>
            list?.map((d) =>
              d.id !== document.id ? d : (next ?? (name === 'alert' ? { ...d, version: d.version + 1 } : d)),
            ),
          );
          void showSuccess(success);
          void refresh().then(after);
        },
      );
    } catch (error) {
      void showError(failureText(error));
      return false;
    } finally {
      setBusy(null);
    }
  };
  return { run, busy, conflict };
}
