import { Button, Classes, DialogBody, H5, HTMLTable, Intent, Switch, Tag } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REASON_DECISIONS, REVIEW_LIMITS, type ReasonCode, type ReasonDecision } from '#contract/review';
import { isApiError } from '../../../services/api/http';
import { getReasonCodes } from '../../../services/api/review';
import { reviewAdminKeys, setReasonCodes } from '../../../services/api/reviewAdmin';
import { useActiveAccount } from '../../app/useAccounts';
import { Alert, Dialog } from '../../components/Dialog';
import { FormDialogFooter } from '../../components/FormDialogFooter';
import { TextField } from '../../components/TextField';
import { showError, showSuccess } from '../../toaster';
import { ListCard } from './ReviewListCard';

type Editing = { decision: ReasonDecision; original: ReasonCode | null };

/**
 * Reason codes per decision: code, English and Turkish labels, note required. Each change
 * (add, edit, remove after a confirmation) sends the whole list; the server's answer is the new list. A failed
 * save leaves the dialog open with what was typed and the server's reason.
 */
export function ReasonCodesCard() {
  const { t } = useTranslation('reviewAdmin');
  const { t: tc } = useTranslation();
  const account = useActiveAccount();
  const queryClient = useQueryClient();
  const key = [...reviewAdminKeys.reasonCodes, account?.company_id ?? 0];
  const codes = useQuery({ queryKey: key, queryFn: ({ signal }) => getReasonCodes({ signal }) });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [removing, setRemoving] = useState<ReasonCode | null>(null);
  const list = codes.data ?? [];
  const save = useMutation({ mutationFn: setReasonCodes });
  const write = async (next: ReasonCode[], done: string) => {
    const answer = await save.mutateAsync(next);
    queryClient.setQueryData(key, answer.codes);
    void showSuccess(done);
  };
  const same = (a: ReasonCode, b: ReasonCode) => a.decision === b.decision && a.code === b.code;

  return (
    <ListCard title={t('codes.title')} body={t('codes.body')} query={codes} failed={t('codes.loadFailed')}>
      {REASON_DECISIONS.map((decision) => {
        const rows = list.filter((c) => c.decision === decision);
        return (
          <section key={decision} className="studio-review-admin-codes" aria-labelledby={`codes-${decision}`}>
            <div className="studio-review-admin-head">
              <H5 id={`codes-${decision}`}>{t(`codes.decisions.${decision}`)}</H5>
              <Button
                icon="add"
                variant="minimal"
                text={t('codes.add')}
                aria-label={t('codes.addTo', { decision: t(`codes.decisions.${decision}`) })}
                onClick={() => setEditing({ decision, original: null })}
              />
            </div>
            {rows.length === 0 ? (
              <p className={Classes.TEXT_MUTED}>{t('codes.none')}</p>
            ) : (
              <HTMLTable compact className="studio-review-admin-table">
                <thead>
                  <tr>
                    <th scope="col">{t('codes.code')}</th>
                    <th scope="col">{t('codes.labelEn')}</th>
                    <th scope="col">{t('codes.labelTr')}</th>
                    <th scope="col">{t('codes.note')}</th>
                    <th scope="col">
                      <span className={Classes.TEXT_MUTED}>{t('actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.code}>
                      <th scope="row">
                        <code>{row.code}</code>
                      </th>
                      <td>{row.label_en}</td>
                      <td lang="tr">{row.label_tr}</td>
                      <td>{row.note_required && <Tag minimal>{t('codes.noteRequired')}</Tag>}</td>
                      <td className="studio-review-admin-actions">
                        <Button
                          icon="edit"
                          variant="minimal"
                          text={t('codes.edit')}
                          aria-label={t('codes.editOf', { code: row.code })}
                          onClick={() => setEditing({ decision, original: row })}
                        />
                        <Button
                          icon="trash"
                          variant="minimal"
                          intent={Intent.DANGER}
                          text={t('codes.remove')}
                          aria-label={t('codes.removeOf', { code: row.code })}
                          onClick={() => setRemoving(row)}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            )}
          </section>
        );
      })}
      {editing && (
        <ReasonCodeDialog
          editing={editing}
          taken={list.filter((c) => c.decision === editing.decision && c.code !== editing.original?.code)}
          onClose={() => setEditing(null)}
          onSave={async (code) => {
            const { original } = editing;
            const next = original ? list.map((c) => (same(c, original) ? code : c)) : [...list, code];
            await write(next, t('codes.saved', { code: code.code }));
            setEditing(null);
          }}
        />
      )}
      <Alert
        isOpen={removing !== null}
        icon="trash"
        intent={Intent.DANGER}
        confirmButtonText={t('codes.removeConfirm')}
        cancelButtonText={t('cancel')}
        canEscapeKeyCancel
        loading={save.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          try {
            await write(
              list.filter((c) => !same(c, removing)),
              t('codes.removed', { code: removing.code }),
            );
            setRemoving(null);
          } catch (error) {
            void showError(isApiError(error) ? error.detail : tc('messages.error'));
          }
        }}
      >
        <H5>{t('codes.removeTitle', { code: removing?.code ?? '' })}</H5>
        <p>{t('codes.removeBody')}</p>
      </Alert>
    </ListCard>
  );
}

const CODE_PATTERN = /^[a-z0-9_]+$/;

function ReasonCodeDialog({
  editing,
  taken,
  onClose,
  onSave,
}: {
  editing: Editing;
  /** The other codes of the same decision: a code appears once per decision. */
  taken: ReasonCode[];
  onClose: () => void;
  onSave: (code: ReasonCode) => Promise<void>;
}) {
  const { t } = useTranslation('reviewAdmin');
  const { t: tc } = useTranslation();
  const { original, decision } = editing;
  const [code, setCode] = useState(original?.code ?? '');
  const [labelEn, setLabelEn] = useState(original?.label_en ?? '');
  const [labelTr, setLabelTr] = useState(original?.label_tr ?? '');
  const [noteRequired, setNoteRequired] = useState(original?.note_required ?? false);
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const codeError = (() => {
    const value = code.trim();
    if (value === '') return tc('validation.required');
    if (value.length > REVIEW_LIMITS.codeMax) return t('codes.codeTooLong', { max: REVIEW_LIMITS.codeMax });
    if (!CODE_PATTERN.test(value)) return t('codes.codePattern');
    if (taken.some((c) => c.code === value)) return t('codes.codeTaken');
    return null;
  })();
  const labelError = (value: string) =>
    value.trim() === ''
      ? tc('validation.required')
      : value.trim().length > REVIEW_LIMITS.labelMax
        ? t('codes.labelTooLong', { max: REVIEW_LIMITS.labelMax })
        : null;
  const errors = { code: codeError, label_en: labelError(labelEn), label_tr: labelError(labelTr) };
  const shown = (message: string | null) => (checked && message ? message : undefined);

  const submit = async () => {
    setChecked(true);
    setServerError(null);
    if (Object.values(errors).some((e) => e !== null)) return;
    setBusy(true);
    try {
      await onSave({
        decision,
        code: code.trim(),
        label_en: labelEn.trim(),
        label_tr: labelTr.trim(),
        note_required: noteRequired,
      });
    } catch (error) {
      const text = isApiError(error) ? error.detail : tc('messages.error');
      setServerError(text);
      void showError(text);
    } finally {
      setBusy(false);
    }
  };

  const decisionName = t(`codes.decisions.${decision}`);
  return (
    <Dialog
      isOpen
      title={
        original
          ? t('codes.editTitle', { decision: decisionName })
          : t('codes.addTitle', { decision: decisionName })
      }
      icon="edit"
      onClose={onClose}
      style={{ width: 520 }}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <DialogBody>
          <TextField
            id="reason-code"
            label={t('codes.code')}
            subLabel={t('codes.codeHelp')}
            message={shown(errors.code)}
            value={code}
            readOnly={original !== null}
            autoFocus={original === null}
            maxLength={REVIEW_LIMITS.codeMax + 10}
            onValueChange={setCode}
          />
          <TextField
            id="reason-label-en"
            label={t('codes.labelEn')}
            message={shown(errors.label_en)}
            value={labelEn}
            lang="en"
            autoFocus={original !== null}
            onValueChange={setLabelEn}
          />
          <TextField
            id="reason-label-tr"
            label={t('codes.labelTr')}
            message={shown(errors.label_tr)}
            value={labelTr}
            lang="tr"
            onValueChange={setLabelTr}
          />
          <Switch
            label={t('codes.noteRequiredLabel')}
            checked={noteRequired}
            onChange={(event) => setNoteRequired(event.currentTarget.checked)}
          />
          {serverError && (
            <p role="alert" className="studio-review-admin-error">
              {serverError}
            </p>
          )}
        </DialogBody>
        <FormDialogFooter cancel={t('cancel')} onCancel={onClose} submit={t('save')} busy={busy} />
      </form>
    </Dialog>
  );
}
