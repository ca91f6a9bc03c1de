import { Checkbox, DialogBody, FormGroup } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  isWebhookUrl,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENTS,
  type WebhookEndpoint,
  type WebhookEventType,
} from '#contract/webhooks';
import { createEndpoint, updateEndpoint } from '../../../services/api/webhooks';
import { Dialog } from '../../components/Dialog';
import { FormDialogFooter } from '../../components/FormDialogFooter';
import { TextField } from '../../components/TextField';
import { useErrorText } from '../../components/useErrorText';
import { showError, showSuccess } from '../../toaster';

/** Add or edit an endpoint: URL ("Please type a valid url"), description, subscribed events (none: all). */
export function EndpointDialog({
  endpoint,
  onClose,
  onSaved,
}: {
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('webhooks');
  const { t: tc } = useTranslation();
  const errorText = useErrorText();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [events, setEvents] = useState<WebhookEventType[]>(endpoint?.enabled_events ?? []);
  const [checked, setChecked] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const urlMessage = checked
    ? url.trim() === ''
      ? tc('validation.required')
      : !isWebhookUrl(url)
        ? t('form.invalidUrl')
        : (serverError ?? undefined)
    : (serverError ?? undefined);
  const all = events.length === 0;
  const toggle = (event: WebhookEventType) =>
    setEvents((was) => (was.includes(event) ? was.filter((e) => e !== event) : [...was, event]));

  const save = async () => {
    setChecked(true);
    setServerError(null);
    if (!isWebhookUrl(url)) return;
    setBusy(true);
    try {
      const body = { url: url.trim(), description: description.trim(), enabled_events: events };
      if (endpoint) await updateEndpoint(endpoint.id, body);
      else await createEndpoint(body);
      void showSuccess(t('endpoints.saved'));
      onSaved();
    } catch (error) {
      const text = errorText(error);
      setServerError(text);
      void showError(text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      isOpen
      title={endpoint ? t('form.editTitle') : t('form.addTitle')}
      icon="link"
      onClose={onClose}
      style={{ width: 560 }}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <DialogBody>
          <TextField
            id="webhook-url"
            label={t('form.url')}
            subLabel={t('form.urlHelp')}
            message={urlMessage}
            type="url"
            autoFocus
            placeholder="https://example.com/webhooks"
            value={url}
            onValueChange={(value) => {
              setUrl(value);
              setServerError(null);
            }}
          />
          <TextField
            id="webhook-description"
            label={t('form.description')}
            maxLength={WEBHOOK_DESCRIPTION_MAX}
            value={description}
            onValueChange={setDescription}
          />
          <FormGroup label={t('form.events')}>
            <Checkbox
              checked={all}
              label={t('form.allEvents')}
              onChange={() => setEvents(all ? ['profile.status_changed'] : [])}
            />
            {WEBHOOK_EVENTS.map((event) => (
              <Checkbox
                key={event}
                checked={!all && events.includes(event)}
                disabled={all}
                label={`${t(`events.names.${event}`)} (${event})`}
                onChange={() => toggle(event)}
              />
            ))}
          </FormGroup>
        </DialogBody>
        <FormDialogFooter cancel={t('form.cancel')} onCancel={onClose} submit={t('form.save')} busy={busy} />
      </form>
    </Dialog>
  );
}
