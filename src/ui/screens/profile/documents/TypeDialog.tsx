import { Callout, DialogBody, FormGroup, HTMLSelect, Intent, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { documentKeys, getDocumentTypes } from '../../../../services/api/documents';
import { Dialog } from '../../../components/Dialog';
import { FormDialogFooter } from '../../../components/FormDialogFooter';
import { useDocumentLabels } from './labels';

/** Chooses a document type (GET /documenttype): for the type override and for an upload. */
export function useDocumentTypes() {
  return useQuery({
    queryKey: documentKeys.types,
    queryFn: ({ signal }) => getDocumentTypes({ signal }),
    staleTime: 10 * 60_000,
  });
}

export function TypeSelect({
  id,
  value,
  onChange,
  invalid = false,
}: {
  id: string;
  value: number | null;
  onChange: (typeId: number | null) => void;
  invalid?: boolean;
}) {
  const { t } = useTranslation('documents');
  const labels = useDocumentLabels();
  const types = useDocumentTypes();
  if (types.isError)
    return (
      <Callout intent={Intent.DANGER} compact>
        {t('type.loadFailed')}
      </Callout>
    );
  if (!types.data) return <Spinner size={16} />;
  return (
    <HTMLSelect
      id={id}
      fill
      value={value ?? ''}
      className={invalid ? 'studio-invalid' : undefined}
      onChange={(event) => onChange(event.currentTarget.value ? Number(event.currentTarget.value) : null)}
    >
      <option value="">{t('type.choose')}</option>
      {[...types.data]
        .sort((a, b) => a.sort_order - b.sort_order)
        .map((type) => (
          <option key={type.id} value={type.id}>
            {t('type.option', {
              name: type.name,
              label: labels.documentClass(type.document_class),
              country: type.country ? `, ${type.country}` : '',
            })}
          </option>
        ))}
    </HTMLSelect>
  );
}

export function TypeDialog({
  isOpen,
  current,
  busy,
  onSave,
  onClose,
}: {
  isOpen: boolean;
  current: number | null;
  busy: boolean;
  onSave: (typeId: number) => Promise<boolean>;
  onClose: () => void;
}) {
  const { t } = useTranslation('documents');
  const [typeId, setTypeId] = useState<number | null>(current);
  return (
    <Dialog isOpen={isOpen} title={t('type.title')} icon="exchange" onClose={onClose}>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          if (typeId !== null && typeId !== current && (await onSave(typeId))) onClose();
        }}
      >
        <DialogBody>
          <FormGroup label={t('type.label')} labelFor="document-type">
            <TypeSelect id="document-type" value={typeId} onChange={setTypeId} />
          </FormGroup>
        </DialogBody>
        <FormDialogFooter
          cancel={t('cancel')}
          onCancel={onClose}
          submit={t('save')}
          busy={busy}
          disabled={typeId === null || typeId === current}
        />
      </form>
    </Dialog>
  );
}
