import { Alert, Button, ButtonGroup, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { Document } from '../../../../contract/documents';
import {
  archiveDocument,
  changeDocumentType,
  deleteDocument,
  overrideFields,
  reviewDocument,
} from '../../../../services/api/documents';
import { ReasonDialog } from '../../../components/ReasonDialog';
import { FieldOverrideDialog } from './FieldOverrideDialog';
import { TypeDialog } from './TypeDialog';
import { useDocumentAction } from './useDocumentAction';

type Open = null | 'reject' | 'delete' | 'fields' | 'type';

/** A document's actions (§1, §4): approve, reject, override type and fields, archive or restore, delete. */
export function DocumentActions({
  document,
  profileId,
  title,
  onDeleted,
}: {
  document: Document;
  profileId: number;
  title: string;
  onDeleted?: () => void;
}) {
  const { t } = useTranslation('documents');
  const { t: tc } = useTranslation();
  const [open, setOpen] = useState<Open>(null);
  const [location, navigate] = useLocation();
  const { run, busy } = useDocumentAction(profileId);
  const close = () => setOpen(null);
  const id = document.id;
  return (
    <div className="studio-document-actions">
      <ButtonGroup>
        <Button
          icon="tick"
          intent={Intent.SUCCESS}
          text={t('actions.approve')}
          disabled={document.status === 'approved'}
          loading={busy === 'approve'}
          onClick={() => run('approve', () => reviewDocument(id, true, null), tc('success.documentApproved'))}
        />
        <Button
          icon="ban-circle"
          intent={Intent.DANGER}
          text={t('actions.reject')}
          disabled={document.status === 'rejected'}
          onClick={() => setOpen('reject')}
        />
      </ButtonGroup>
      <ButtonGroup>
        <Button icon="edit" text={t('actions.fields')} onClick={() => setOpen('fields')} />
        <Button icon="exchange" text={t('actions.type')} onClick={() => setOpen('type')} />
        <Button
          icon={document.archived ? 'unarchive' : 'archive'}
          text={document.archived ? t('actions.restore') : t('actions.archive')}
          loading={busy === 'archive'}
          onClick={() =>
            run(
              'archive',
              () => archiveDocument(id, !document.archived),
              document.archived ? tc('success.documentRestored') : tc('success.documentArchived'),
            )
          }
        />
        <Button
          icon="trash"
          intent={Intent.DANGER}
          variant="outlined"
          text={t('actions.delete')}
          onClick={() => setOpen('delete')}
        />
      </ButtonGroup>

      <ReasonDialog
        isOpen={open === 'reject'}
        title={t('reject.title', { title })}
        body={t('reject.body')}
        confirm={t('actions.reject')}
        busy={busy === 'reject'}
        onConfirm={(reason) =>
          run('reject', () => reviewDocument(id, false, reason), tc('success.documentRejected'))
        }
        label={t('reason.label')}
        help={t('reason.help')}
        cancel={t('cancel')}
        onClose={close}
      />
      <Alert
        isOpen={open === 'delete'}
        intent={Intent.DANGER}
        icon="trash"
        confirmButtonText={t('actions.delete')}
        cancelButtonText={t('cancel')}
        loading={busy === 'delete'}
        canEscapeKeyCancel
        onCancel={close}
        onConfirm={async () => {
          const done = await run('delete', () => deleteDocument(id), tc('success.documentDeleted'));
          if (!done) return;
          close();
          onDeleted?.();
          if (location.includes('/document/')) navigate(`~/profile/${profileId}?tab=documents`);
        }}
      >
        <p>{t('delete.body', { title })}</p>
      </Alert>
      {open === 'fields' && (
        <FieldOverrideDialog
          isOpen
          document={document}
          busy={busy === 'fields'}
          onSave={(fields) => run('fields', () => overrideFields(id, fields), tc('messages.success'))}
          onClose={close}
        />
      )}
      {open === 'type' && (
        <TypeDialog
          isOpen
          current={document.type?.id ?? null}
          busy={busy === 'type'}
          onSave={(typeId) =>
            run('type', () => changeDocumentType(id, typeId), tc('success.documentTypeChanged'))
          }
          onClose={close}
        />
      )}
    </div>
  );
}
