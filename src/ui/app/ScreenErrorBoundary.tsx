import { Button, Intent, NonIdealState } from '@blueprintjs/core';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isChunkLoadError } from '../../services/chunks';
import { reloadPage } from './reload';

function ScreenFailure({ error }: { error: Error }) {
  const { t } = useTranslation();
  const chunk = isChunkLoadError(error);
  const description = !chunk
    ? t('messages.error')
    : error.code === 'CSS_CHUNK_LOAD_FAILED'
      ? t('chunk.styleBody')
      : t('chunk.body');
  return (
    <NonIdealState
      icon="error"
      title={chunk ? t('chunk.title') : t('messages.error')}
      description={chunk ? description : undefined}
      action={
        <Button intent={Intent.PRIMARY} icon="refresh" onClick={reloadPage} autoFocus>
          {t('chunk.reload')}
        </Button>
      }
    />
  );
}

interface Props {
  children: ReactNode;
  /** A new key (e.g. the location) clears a shown failure. */
  resetKey: string;
}

interface State {
  error: Error | null;
  resetKey: string;
}

/**
 * Shows a screen that failed, above all a chunk that could not load (ChunkLoadError,
 * CSS_CHUNK_LOAD_FAILED), as a clear message with Reload instead of a white page.
 */
export class ScreenErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override render() {
    return this.state.error ? <ScreenFailure error={this.state.error} /> : this.props.children;
  }
}
