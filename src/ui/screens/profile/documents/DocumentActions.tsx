import { Button, ButtonGroup, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { Document } from '#contract/documents';
import {
  archiveDocument,
  changeDocumentType,
  deleteDocument,
  overrideFields,
  reviewDocument,
} from '../../../../services/api/documents';
import { ConflictDialog } from '../../../components/ConflictDialog';
import { Alert } from '../../../components/Dialog';
import { ReasonDialog } from '../../../components/ReasonDialog';
import { FieldOverrideDialog } from './FieldOverrideDialog';
import { TypeDialog } from './TypeDialog';
import { useDocumentAction } from './useDocumentAction';

type Open = null | 'reject' | 'delete' | 'fields' | 'type';

/** A document's actions (docs/product/README.md, docs/product/states.md): approve, reject, override type and fields, archive or restore, delete. */
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
  const format = useDocumentValueFormat();
  const [open, setOpen] = useState<Open>(null);
  // The document as a dialog opened on it: live updates must not move the version under what is typed.
  const [base, setBase] = useState(document);
  const [location, navigate] = useLocation();
  const { run, busy, conflict } = useDocumentAction(profileId);
  const close = () => setOpen(null);
  const openDialog = (kind: Exclude<Open, null>) => {
    setBase(document);
    setOpen(kind);
  };
  const deleted = () => {
    close();
    onDeleted?.();
    if (location.includes('/document/')) navigate(`~/profile/${profileId}?tab=documents`);
  };
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
          onClick={() =>
            run(
              'approve',
              document,
              { status: 'approved' },
              (version) => reviewDocument(id, true, null, version),
              tc('success.documentApproved'),
            )
          }
        />
        <Button
          icon="ban-circle"
          intent={Intent.DANGER}
          text={t('actions.reject')}
          disabled={document.status === 'rejected'}
          onClick={() => openDialog('reject')}
        />
      </ButtonGroup>
      <ButtonGroup>
        <Button icon="edit" text={t('actions.fields')} onClick={() => openDialog('fields')} />
        <Button icon="exchange" text={t('actions.type')} onClick={() => openDialog('type')} />
        <Button
          icon={document.archived ? 'unarchive' : 'archive'}
          text={document.archived ? t('actions.restore') : t('actions.archive')}
          loading={busy === 'archive'}
          onClick={() =>
            run(
              'archive',
              document,
              { archived: String(!document.archived) },
              (version) => archiveDocument(id, !document.archived, version),
              document.archived ? tc('success.documentRestored') : tc('success.documentArchived'),
            )
          }
        />
        <Button
          icon="trash"
          intent={Intent.DANGER}
          variant="outlined"
          text={t('actions.delete')}
          onClick={() => openDialog('delete')}
        />
      </ButtonGroup>

      <ReasonDialog
        isOpen={open === 'reject'}
        title={t('reject.title', { title })}
        body={t('reject.body')}
        confirm={t('actions.reject')}
        busy={busy === 'reject'}
        onConfirm={(reason) =>
          run(
            'reject',
            base,
            { status: 'rejected', review_reason: reason.trim() },
            (version) => reviewDocument(id, false, reason, version),
            tc('success.documentRejected'),
            close,
          )
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
        onConfirm={() =>
          run(
            'delete',
            base,
            {},
            (version) => deleteDocument(id, version),
            tc('success.documentDeleted'),
            deleted,
          )
        }
      >
        <p>{t('delete.body', { title })}</p>
      </Alert>
      {open === 'fields' && (
        <FieldOverrideDialog
          isOpen
          document={document}
          busy={busy === 'fields'}
          onSave={(fields) =>
            run(
              'fields',
              base,
              fields,
              (version) => overrideFields(id, fields, version),
              tc('messages.success'),
              close,
            )
          }
          onClose={close}
        />
      )}
      {open === 'type' && (
        <TypeDialog
          isOpen
          current={document.type?.id ?? null}
          busy={busy === 'type'}
          onSave={(typeId) =>
            run(
              'type',
              base,
              {},
              (version) => changeDocumentType(id, typeId, version),
              tc('success.documentTypeChanged'),
              close,
            )
          }
          onClose={close}
        />
      )}
      <ConflictDialog {...conflict.dialog} subject={title} format={format} />
    </div>
  );
}

/** Shown values of the conflict dialog's document fields: decisions and yes/no translated. */
function useDocumentValueFormat() {
  const { t } = useTranslation('presence');
  return (field: string, value: string) =>
    field === 'status' || field === 'archived'
      ? t(`values.${value}` as 'values.true', { defaultValue: value })
      : value;
}
