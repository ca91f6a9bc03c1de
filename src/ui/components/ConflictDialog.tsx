import { Button, Classes, DialogBody, DialogFooter, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { FieldChange } from '../../machines/versionConflict';
import { Dialog } from './Dialog';

/**
 * A write was refused because someone else changed the object meanwhile (409): what changed
 * (when the reviewer opened it, now, their change), and the two ways on — apply the change again against
 * what is there now, or discard it. What the reviewer typed stays in the form below until they choose.
 */
export function ConflictDialog({
  isOpen,
  subject,
  changes,
  busy,
  format = (_, value) => value,
  onReapply,
  onDiscard,
  onClose,
}: {
  isOpen: boolean;
  /** "This profile" / "This document", or the document's title. */
  subject: string;
  changes: FieldChange[];
  busy: boolean;
  /** The shown text of a field's value (statuses in the interface language, …). */
  format?: (field: string, value: string) => string;
  onReapply: () => void;
  onDiscard: () => void;
  /** Escape or the close button: back to the form, nothing sent. */
  onClose: () => void;
}) {
  const { t } = useTranslation('presence');
  const show = (field: string, value: string | null) =>
    value === null ? <span className={Classes.TEXT_MUTED}>{t('conflict.empty')}</span> : format(field, value);
  const label = (field: string) => t(`fields.${field}` as 'fields.name', { defaultValue: field }) as string;
  return (
    <Dialog
      isOpen={isOpen}
      title={t('conflict.title')}
      icon="warning-sign"
      onClose={onClose}
      style={{ width: 680 }}
      className="studio-conflict-dialog"
    >
      <DialogBody>
        <p>
          <strong>{subject}</strong>
        </p>
        <p>{t('conflict.body')}</p>
        {changes.length === 0 ? (
          <p className={Classes.TEXT_MUTED}>{t('conflict.none')}</p>
        ) : (
          <HTMLTable compact striped aria-label={t('conflict.tableLabel')} style={{ width: '100%' }}>
            <thead>
              <tr>
                <th scope="col">{t('conflict.field')}</th>
                <th scope="col">{t('conflict.before')}</th>
                <th scope="col">{t('conflict.theirs')}</th>
                <th scope="col">{t('conflict.mine')}</th>
              </tr>
            </thead>
            <tbody>
              {changes.map((change) => (
                <tr key={change.field} data-testid={`conflict-${change.field}`}>
                  <th scope="row">
                    {label(change.field)}
                    {change.clash && (
                      <Tag minimal intent={Intent.WARNING} style={{ marginLeft: 6 }}>
                        {t('conflict.clash')}
                      </Tag>
                    )}
                  </th>
                  <td>{show(change.field, change.before)}</td>
                  <td>
                    <strong>{show(change.field, change.theirs)}</strong>
                  </td>
                  <td>
                    {change.touchedByMe ? (
                      show(change.field, change.mine)
                    ) : (
                      <span className={Classes.TEXT_MUTED}>{t('conflict.unchanged')}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('conflict.discard')} onClick={onDiscard} disabled={busy} />
            <Button
              intent={Intent.PRIMARY}
              text={t('conflict.reapply')}
              onClick={onReapply}
              loading={busy}
              autoFocus
            />
          </>
        }
      />
    </Dialog>
  );
}
