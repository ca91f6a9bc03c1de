/** The image viewer: every key, the wheel, the 3500 ms controls timer, zoom, rotation, focus. */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { StrictMode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTROLS_HIDE_MS } from '../../src/machines/imageViewer.machine';
import {
  ImageThumbnails,
  useImageViewer,
  type ViewerImage,
} from '../../src/ui/components/imageViewer/ImageViewer';
import { missingKeys } from './setup';

const images: ViewerImage[] = [
  { src: 'http://files.test/a.png', title: 'Front' },
  { src: 'http://files.test/b.png', title: 'Back', href: 'http://files.test/b-original.png' },
  { src: 'http://files.test/c.pdf', title: 'Scan', kind: 'pdf' },
];

function Harness({ group = images }: { group?: ViewerImage[] }) {
  const viewer = useImageViewer();
  return (
    <>
      <button type="button">Before</button>
      <ImageThumbnails images={group} label="Pages" onOpen={viewer.open} />
      {viewer.viewer}
    </>
  );
}

beforeAll(async () => {
  await i18next.loadNamespaces('documents');
});

const dialog = () => screen.getByRole('dialog');
const title = () => dialog().querySelector('.studio-viewer-title')?.textContent;
const key = (k: string, init: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(document.activeElement ?? dialog(), { key: k, ...init });
const image = () => within(dialog()).getByRole('img') as HTMLImageElement;

function open(index = 0, strict = false, group = images) {
  render(
    strict ? (
      <StrictMode>
        <Harness group={group} />
      </StrictMode>
    ) : (
      <Harness group={group} />
    ),
  );
  const thumbnail = within(screen.getByRole('list', { name: 'Pages' })).getAllByRole('button')[
    index
  ] as HTMLElement;
  thumbnail.focus();
  fireEvent.click(thumbnail);
  return thumbnail;
}

describe.each([false, true])('image viewer (StrictMode: %s)', (strict) => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    expect(missingKeys).toEqual([]);
  });

  it('opens on the clicked thumbnail and takes the focus', () => {
    open(1, strict);
    expect(dialog()).toHaveAccessibleName('Image viewer: Back');
    expect(title()).toBe('2 of 3 · Back');
    expect(image().src).toBe('http://files.test/b.png');
    expect(dialog().contains(document.activeElement)).toBe(true);
  });

  it.each([
    ['ArrowRight', '3 of 3 · Scan'],
    ['l', '3 of 3 · Scan'],
    ['ArrowLeft', '1 of 3 · Front'],
    ['h', '1 of 3 · Front'],
  ])('%s moves through the group', (k, expected) => {
    open(1, strict);
    key(k);
    expect(title()).toBe(expected);
  });

  it('wraps around at both ends and offers the original of a PDF page', () => {
    open(2, strict);
    expect(
      within(dialog()).getByText('This page is a PDF file. Open the original to read it.'),
    ).toBeInTheDocument();
    key('ArrowRight');
    expect(title()).toBe('1 of 3 · Front');
    key('ArrowLeft');
    expect(title()).toBe('3 of 3 · Scan');
  });

  it.each(['Escape', 'q'])('%s closes and gives the focus back to the thumbnail', (k) => {
    const thumbnail = open(0, strict);
    key(k);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(thumbnail);
  });

  it('scrolling (the wheel) closes', () => {
    open(0, strict);
    fireEvent.wheel(dialog(), { deltaY: 40 });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keys with modifiers are left to the browser', () => {
    open(0, strict);
    key('q', { ctrlKey: true });
    key('l', { metaKey: true });
    expect(title()).toBe('1 of 3 · Front');
  });

  it('zooms with + - 0 and the buttons, and rotates with r', () => {
    open(0, strict);
    key('+');
    key('=');
    expect(image().style.transform).toBe('scale(1.5) rotate(0deg)');
    key('-');
    expect(image().style.transform).toBe('scale(1.25) rotate(0deg)');
    key('0');
    expect(image().style.transform).toBe('scale(1) rotate(0deg)');
    key('r');
    expect(image().style.transform).toBe('scale(1) rotate(90deg)');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Zoom in (+)' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Rotate (r)' }));
    expect(image().style.transform).toBe('scale(1.25) rotate(180deg)');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Zoom out (-)' }));
    expect(within(dialog()).getByRole('button', { name: 'Actual size (0)' })).toHaveTextContent('100%');
    // Another image starts unzoomed and upright.
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Next (→ or l)' }));
    expect(image().style.transform).toBe('scale(1) rotate(0deg)');
  });

  it('has next, previous, thumbnails, a source link and a close button', () => {
    open(0, strict);
    const view = within(dialog());
    fireEvent.click(view.getByRole('button', { name: 'Previous (← or h)' }));
    expect(title()).toBe('3 of 3 · Scan');
    fireEvent.click(
      within(view.getByRole('list', { name: 'All images' })).getByRole('button', { name: 'Back' }),
    );
    expect(title()).toBe('2 of 3 · Back');
    const source = view.getByRole('link', { name: 'Open the original in a new tab' });
    expect(source).toHaveAttribute('href', 'http://files.test/b-original.png');
    expect(source).toHaveAttribute('target', '_blank');
    expect(source).toHaveAttribute('rel', 'noopener noreferrer');
    fireEvent.click(view.getByRole('button', { name: 'Close (Esc or q)' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('hides the controls after 3500 ms without mouse movement and shows them on movement', () => {
    open(0, strict);
    expect(dialog()).toHaveAttribute('data-controls', 'visible');
    act(() => vi.advanceTimersByTime(CONTROLS_HIDE_MS - 100));
    fireEvent.mouseMove(dialog());
    act(() => vi.advanceTimersByTime(CONTROLS_HIDE_MS - 100));
    expect(dialog()).toHaveAttribute('data-controls', 'visible');
    act(() => vi.advanceTimersByTime(100));
    expect(dialog()).toHaveAttribute('data-controls', 'hidden');
    fireEvent.mouseMove(dialog());
    expect(dialog()).toHaveAttribute('data-controls', 'visible');
  });

  it('keeps the keyboard focus inside while open', () => {
    open(0, strict);
    const focusable = [...dialog().querySelectorAll<HTMLElement>('a[href], button:not([disabled])')];
    const first = focusable[0] as HTMLElement;
    const last = focusable[focusable.length - 1] as HTMLElement;
    last.focus();
    key('Tab');
    expect(document.activeElement).toBe(first);
    key('Tab', { shiftKey: true });
    expect(document.activeElement).toBe(last);
    expect(screen.getByRole('button', { name: 'Before' })).not.toHaveFocus();
  });

  it('shows a single image without group controls', () => {
    open(0, strict, [images[0] as ViewerImage]);
    expect(title()).toBe('Front');
    expect(within(dialog()).queryByRole('button', { name: 'Next (→ or l)' })).toBeNull();
    key('ArrowRight');
    expect(title()).toBe('Front');
  });
});
