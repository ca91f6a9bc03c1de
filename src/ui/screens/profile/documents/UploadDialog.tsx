import { Button, Callout, DialogBody, FormGroup, Icon, Intent, ProgressBar } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { type DragEvent, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromCallback } from 'xstate';
import { MAX_PAGE_BYTES, MAX_PAGES, PAGE_ACCEPT } from '../../../../machines/documents';
import {
  documentUploadMachine,
  type UploadEvent,
  type UploadInput,
} from '../../../../machines/documentUpload.machine';
import { browserDeviceData, documentKeys, uploadDocument } from '../../../../services/api/documents';
import { isApiError } from '../../../../services/api/http';
import { Dialog } from '../../../components/Dialog';
import { FormDialogFooter } from '../../../components/FormDialogFooter';
import { showError, showSuccess } from '../../../toaster';
import { TypeSelect } from './TypeDialog';
import { useFailureText } from './useDocumentAction';

const MB = MAX_PAGE_BYTES / 1024 / 1024;

/** Upload (docs/product/README.md, docs/product/entities.md): several pages by choice or drag and drop, a type, progress; a failure loses nothing. */
export function UploadDialog({ profileId, onClose }: { profileId: number; onClose: () => void }) {
  const { t } = useTranslation('documents');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const failureText = useFailureText();
  const machine = useMemo(
    () =>
      documentUploadMachine.provide({
        actors: {
          upload: fromCallback<UploadEvent, UploadInput>(({ input, sendBack }) => {
            const controller = new AbortController();
            uploadDocument(
              {
                profile: input.profileId,
                type: input.typeId,
                pages: input.files as File[],
                upload_source: 'studio',
                device_data: browserDeviceData(),
              },
              {
                signal: controller.signal,
                onProgress: (progress) => sendBack({ type: 'upload.progress', progress }),
              },
            ).then(
              (document) => sendBack({ type: 'upload.done', documentId: document.id }),
              (error: unknown) => {
                if (controller.signal.aborted) return;
                sendBack({
                  type: 'upload.failed',
                  detail: isApiError(error) ? failureText(error) : tc('messages.error'),
                  status: isApiError(error) ? error.status : 0,
                });
              },
            );
            return () => controller.abort();
          }),
        },
        actions: {
          notifyUploaded: () => {
            void showSuccess(tc('messages.success'));
            void queryClient.invalidateQueries({ queryKey: documentKeys.all(profileId) });
            void queryClient.invalidateQueries({ queryKey: documentKeys.logs(profileId) });
            onClose();
          },
          notifyFailed: (_, failure) => void showError(failure.detail ?? tc('messages.error')),
        },
      }),
    [profileId, queryClient, onClose, tc, failureText],
  );
  const [state, send] = useMachine(machine, { input: { profileId } });
  const { files, refused, typeId, progress, error, tried } = state.context;
  const busy = state.hasTag('busy');
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const add = (list: FileList | null) => {
    if (list && list.length > 0) send({ type: 'files.added', files: [...list] });
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!busy) add(event.dataTransfer.files);
  };
  const close = () => {
    if (busy) send({ type: 'upload.cancelled' });
    onClose();
  };

  return (
    <Dialog isOpen title={t('upload.title')} icon="upload" onClose={close} className="studio-upload-dialog">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          send({ type: 'upload.submitted' });
        }}
      >
        <DialogBody>
          <FormGroup
            label={t('type.label')}
            labelFor="upload-type"
            intent={tried && typeId === null ? Intent.DANGER : Intent.NONE}
            helperText={tried && typeId === null ? t('upload.typeRequired') : undefined}
          >
            <TypeSelect
              id="upload-type"
              value={typeId}
              invalid={tried && typeId === null}
              onChange={(value) => send({ type: 'type.chosen', typeId: value })}
            />
          </FormGroup>
          {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop zone also has its own button for the keyboard. */}
          <div
            className={`studio-dropzone${dragging ? ' studio-dropzone-active' : ''}`}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            data-testid="upload-dropzone"
          >
            <Icon icon="upload" size={24} />
            <p>{t('upload.drop')}</p>
            <Button text={t('upload.choose')} onClick={() => input.current?.click()} disabled={busy} />
            <input
              ref={input}
              type="file"
              multiple
              hidden
              accept={PAGE_ACCEPT}
              aria-label={t('upload.choose')}
              onChange={(event) => {
                add(event.currentTarget.files);
                event.currentTarget.value = '';
              }}
            />
            <p className="studio-muted">{t('upload.limits', { max: MAX_PAGES, mb: MB })}</p>
          </div>
          {tried && files.length === 0 && (
            <Callout intent={Intent.DANGER} compact>
              {t('upload.pagesRequired')}
            </Callout>
          )}
          {refused.length > 0 && (
            <Callout intent={Intent.WARNING} compact role="alert" title={t('upload.refusedTitle')}>
              <ul>
                {refused.map((file) => (
                  <li key={`${file.name}-${file.problem}`}>
                    {t(`upload.refused.${file.problem}`, { name: file.name, mb: MB, max: MAX_PAGES })}
                  </li>
                ))}
              </ul>
            </Callout>
          )}
          {files.length > 0 && (
            <ol className="studio-upload-pages" aria-label={t('upload.pages')}>
              {files.map((file, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the position is the page number; the same file may be chosen twice.
                <li key={`${file.name}-${index}`}>
                  <span>
                    {t('upload.pageLine', {
                      page: index + 1,
                      name: file.name,
                      size: (file.size / 1024).toFixed(0),
                    })}
                  </span>
                  <Button
                    size="small"
                    variant="minimal"
                    icon="cross"
                    disabled={busy}
                    aria-label={t('upload.remove', { name: file.name })}
                    onClick={() => send({ type: 'file.removed', index })}
                  />
                </li>
              ))}
            </ol>
          )}
          {busy && (
            <div className="studio-upload-progress" role="status">
              <ProgressBar
                value={progress}
                intent={Intent.PRIMARY}
                animate={progress < 1}
                stripes={progress < 1}
              />
              <span>{t('upload.progress', { percent: Math.round(progress * 100) })}</span>
            </div>
          )}
          {error && !busy && (
            <Callout intent={Intent.DANGER} compact role="alert">
              {t('upload.failed', { detail: error })}
            </Callout>
          )}
        </DialogBody>
        <FormDialogFooter
          cancel={t('cancel')}
          onCancel={close}
          submit={t('upload.send')}
          icon="upload"
          busy={busy}
        />
      </form>
    </Dialog>
  );
}
