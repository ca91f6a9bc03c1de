import { Button, ButtonGroup, Classes, Icon } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { type KeyboardEvent, useCallback, useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import {
  imageViewerMachine,
  keyToEvent,
  MAX_ZOOM,
  MIN_ZOOM,
  type ViewerImage,
} from '../../../machines/imageViewer.machine';
import './icons';
import './imageViewer.css';

export type { ViewerImage };

const FOCUSABLE = 'a[href], button:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The full-screen image viewer (docs/product/README.md): `open(images, index)` shows one image of a group. Keys: Escape or
 * q close, ArrowLeft/h and ArrowRight/l move, + - 0 zoom, r rotates; the wheel (scroll) closes. Controls
 * hide after 3500 ms without mouse movement. Focus stays inside while open and returns where it was.
 */
export function useImageViewer() {
  const [state, send] = useMachine(imageViewerMachine);
  const returnFocus = useRef<HTMLElement | null>(null);
  const open = useCallback(
    (images: ViewerImage[], index: number) => {
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      send({ type: 'viewer.opened', images, index });
    },
    [send],
  );
  const isOpen = state.hasTag('open');
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !isOpen) returnFocus.current?.focus();
    wasOpen.current = isOpen;
  }, [isOpen]);
  const viewer = isOpen ? <ViewerOverlay state={state} send={send} /> : null;
  return { open, viewer, isOpen };
}

type Snapshot = ReturnType<typeof useMachine<typeof imageViewerMachine>>[0];
type Send = ReturnType<typeof useMachine<typeof imageViewerMachine>>[1];

function ViewerOverlay({ state, send }: { state: Snapshot; send: Send }) {
  const { t } = useTranslation('documents');
  const root = useRef<HTMLDivElement>(null);
  const { images, index, zoom, rotation } = state.context;
  const image = images[index] as ViewerImage;
  const group = images.length > 1;
  const controls = state.hasTag('controlsVisible');

  useEffect(() => {
    root.current?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Tab') {
      // Focus stays inside the viewer.
      const items = [...(root.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return event.preventDefault();
      const active = document.activeElement;
      if (event.shiftKey && (active === first || active === root.current)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first.focus();
      }
      return;
    }
    const next = keyToEvent(event);
    if (!next) return;
    event.preventDefault();
    event.stopPropagation();
    send(next);
  };

  return createPortal(
    <div
      ref={root}
      className={`studio-viewer ${Classes.DARK}`}
      role="dialog"
      aria-modal="true"
      aria-label={t('viewer.label', { title: image.title })}
      tabIndex={-1}
      data-controls={controls ? 'visible' : 'hidden'}
      onKeyDown={onKeyDown}
      onMouseMove={() => send({ type: 'pointer.moved' })}
      onWheel={() => send({ type: 'viewer.closed' })}
    >
      <div className="studio-viewer-stage">
        {image.kind === 'pdf' ? (
          <div className="studio-viewer-pdf">
            <Icon icon="document" size={64} />
            <p>{t('viewer.pdf')}</p>
          </div>
        ) : (
          <img
            src={image.src}
            alt={image.title}
            className="studio-viewer-image"
            style={{ transform: `scale(${zoom}) rotate(${rotation}deg)` }}
            draggable={false}
          />
        )}
      </div>
      <div className="studio-viewer-bar studio-viewer-controls">
        <span className="studio-viewer-title" aria-live="polite">
          {group
            ? t('viewer.position', { index: index + 1, count: images.length, title: image.title })
            : image.title}
        </span>
        <ButtonGroup>
          <Button
            icon="zoom-out"
            aria-label={t('viewer.zoomOut')}
            title={t('viewer.zoomOut')}
            disabled={zoom <= MIN_ZOOM}
            onClick={() => send({ type: 'zoom.out' })}
          />
          <Button
            aria-label={t('viewer.zoomReset')}
            title={t('viewer.zoomReset')}
            text={`${Math.round(zoom * 100)}%`}
            onClick={() => send({ type: 'zoom.reset' })}
          />
          <Button
            icon="zoom-in"
            aria-label={t('viewer.zoomIn')}
            title={t('viewer.zoomIn')}
            disabled={zoom >= MAX_ZOOM}
            onClick={() => send({ type: 'zoom.in' })}
          />
          <Button
            icon="rotate-page"
            aria-label={t('viewer.rotate')}
            title={t('viewer.rotate')}
            onClick={() => send({ type: 'image.rotated' })}
          />
          <a
            className={`${Classes.BUTTON}`}
            href={image.href ?? image.src}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('viewer.source')}
            title={t('viewer.source')}
          >
            <Icon icon="share" />
          </a>
          <Button
            icon="cross"
            aria-label={t('viewer.close')}
            title={t('viewer.close')}
            onClick={() => send({ type: 'viewer.closed' })}
          />
        </ButtonGroup>
      </div>
      {group && (
        <>
          <Button
            className="studio-viewer-controls studio-viewer-previous"
            icon="chevron-left"
            size="large"
            aria-label={t('viewer.previous')}
            title={t('viewer.previous')}
            onClick={() => send({ type: 'image.previous' })}
          />
          <Button
            className="studio-viewer-controls studio-viewer-next"
            icon="chevron-right"
            size="large"
            aria-label={t('viewer.next')}
            title={t('viewer.next')}
            onClick={() => send({ type: 'image.next' })}
          />
          <ul className="studio-viewer-controls studio-viewer-thumbnails" aria-label={t('viewer.thumbnails')}>
            {images.map((item, i) => (
              <li key={item.src}>
                <button
                  type="button"
                  className="studio-viewer-thumbnail"
                  aria-label={item.title}
                  aria-current={i === index ? 'true' : undefined}
                  onClick={() => send({ type: 'image.selected', index: i })}
                >
                  {item.kind === 'pdf' ? <Icon icon="document" /> : <img src={item.src} alt="" />}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>,
    document.body,
  );
}

/** Page thumbnails that open the viewer on the clicked page (the group is the whole list). */
export function ImageThumbnails({
  images,
  label,
  onOpen,
}: {
  images: ViewerImage[];
  label: string;
  onOpen: (images: ViewerImage[], index: number) => void;
}) {
  return (
    <ul className="studio-thumbnails" aria-label={label}>
      {images.map((image, index) => (
        <li key={image.src}>
          <button
            type="button"
            className="studio-thumbnail"
            aria-label={image.title}
            onClick={() => onOpen(images, index)}
          >
            {image.kind === 'pdf' ? (
              <Icon icon="document" size={32} />
            ) : (
              <img src={image.src} alt="" loading="lazy" />
            )}
          </button>
        </li>
      ))}
    </ul>
  );
}
