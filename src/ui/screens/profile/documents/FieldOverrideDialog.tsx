import { DialogBody, FormGroup, InputGroup, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTENT_FIELDS } from '#contract/constants';
import { FIELD_MAX_LENGTH, type FieldProblem, isDateField } from '#contract/documentRules';
import type { Document } from '#contract/documents';
import { type ContentField, fieldProblems, todayOf } from '../../../../machines/documents';
import { Dialog } from '../../../components/Dialog';
import { FormDialogFooter } from '../../../components/FormDialogFooter';

type Values = Record<ContentField, string>;

const valuesOf = (document: Document): Values =>
  Object.fromEntries(CONTENT_FIELDS.map((field) => [field, document.content[field] ?? ''])) as Values;

/** Overrides extracted fields (PUT /document/{id}/documentcontent/override); dates are checked before sending. */
export function FieldOverrideDialog({
  document,
  isOpen,
  busy,
  onSave,
  onClose,
}: {
  document: Document;
  isOpen: boolean;
  busy: boolean;
  /** The changed fields (blank clears); answers whether it worked. */
  onSave: (fields: Partial<Record<ContentField, string | null>>) => Promise<boolean>;
  onClose: () => void;
}) {
  const { t } = useTranslation('documents');
  const [values, setValues] = useState<Values>(() => valuesOf(document));
  const initial = valuesOf(document);
  const changed = CONTENT_FIELDS.filter((field) => values[field].trim() !== initial[field].trim());
  // Problems show once the user has tried to save (like useFormCheck, with the field rules' own kinds).
  const [tried, setTried] = useState(false);
  const problems = fieldProblems(values, todayOf(new Date()));
  const judged = (field: ContentField): FieldProblem | null =>
    changed.includes(field) ||
    (problems[field] === 'expiryBeforeIssue' &&
      (changed.includes('IssueDate') || changed.includes('ExpiryDate')))
      ? (problems[field] ?? null)
      : null;
  const failures = Object.fromEntries(
    CONTENT_FIELDS.map((field) => [field, tried ? judged(field) : null]),
  ) as Record<ContentField, FieldProblem | null>;
  const passes = () => {
    setTried(true);
    return CONTENT_FIELDS.every((field) => !judged(field));
  };
  const reset = () => setTried(false);
  const close = () => {
    setValues(valuesOf(document));
    reset();
    onClose();
  };
  return (
    <Dialog
      isOpen={isOpen}
      title={t('fields.overrideTitle')}
      icon="edit"
      onClose={close}
      className="studio-field-dialog"
    >
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          if (!passes() || changed.length === 0) return;
          const fields = Object.fromEntries(changed.map((field) => [field, values[field].trim() || null]));
          if (await onSave(fields)) {
            reset();
            onClose();
          }
        }}
      >
        <DialogBody>
          <p className="studio-muted">{t('fields.overrideHelp')}</p>
          <div className="studio-field-grid">
            {CONTENT_FIELDS.map((field) => {
              const problem = failures[field];
              return (
                <FormGroup
                  key={field}
                  label={t(`fields.${field}`)}
                  labelFor={`field-${field}`}
                  helperText={problem ? t(`fieldProblems.${problem}`, { max: FIELD_MAX_LENGTH }) : undefined}
                  intent={problem ? Intent.DANGER : Intent.NONE}
                >
                  <InputGroup
                    id={`field-${field}`}
                    type={isDateField(field) ? 'date' : 'text'}
                    value={values[field]}
                    intent={problem ? Intent.DANGER : Intent.NONE}
                    onValueChange={(value) => setValues((current) => ({ ...current, [field]: value }))}
                  />
                </FormGroup>
              );
            })}
          </div>
        </DialogBody>
        <FormDialogFooter
          cancel={t('cancel')}
          onCancel={close}
          submit={t('save')}
          busy={busy}
          disabled={changed.length === 0}
        />
      </form>
    </Dialog>
  );
}
