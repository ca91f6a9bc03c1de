import { Button, Intent, NonIdealState } from '@blueprintjs/core';
import { BOOT_FAILURE_TEXT, type Language } from '../../services/i18n';
import { reloadPage } from './reload';

/** Shown when the interface language itself could not be loaded, so no translated text is available. */
export function BootFailure({ language }: { language: Language }) {
  const text = BOOT_FAILURE_TEXT[language];
  return (
    <NonIdealState
      icon="error"
      title={text.title}
      description={text.body}
      action={
        <Button intent={Intent.PRIMARY} icon="refresh" onClick={reloadPage} autoFocus>
          {text.reload}
        </Button>
      }
    />
  );
}
