import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  CONTROLS_HIDE_MS,
  imageViewerMachine,
  keyToEvent,
  MAX_ZOOM,
  MIN_ZOOM,
  type ViewerImage,
} from '../../../src/machines/imageViewer.machine';

const images: ViewerImage[] = [
  { src: '/a.png', title: 'Front' },
  { src: '/b.png', title: 'Back' },
  { src: '/c.pdf', title: 'Scan', kind: 'pdf' },
];

function opened(index = 0, group = images) {
  const actor = createActor(imageViewerMachine).start();
  actor.send({ type: 'viewer.opened', images: group, index });
  return actor;
}

describe('imageViewer machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('starts closed and opens on the clicked image', () => {
    const actor = createActor(imageViewerMachine).start();
    expect(actor.getSnapshot().hasTag('open')).toBe(false);
    actor.send({ type: 'viewer.opened', images, index: 1 });
    expect(actor.getSnapshot().hasTag('open')).toBe(true);
    expect(actor.getSnapshot().context.index).toBe(1);
  });

  it('does not open without images', () => {
    const actor = createActor(imageViewerMachine).start();
    actor.send({ type: 'viewer.opened', images: [], index: 0 });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
  });

  it('moves to the next and previous image, wrapping around the group', () => {
    const actor = opened(0);
    actor.send({ type: 'image.next' });
    expect(actor.getSnapshot().context.index).toBe(1);
    actor.send({ type: 'image.next' });
    actor.send({ type: 'image.next' });
    expect(actor.getSnapshot().context.index).toBe(0);
    actor.send({ type: 'image.previous' });
    expect(actor.getSnapshot().context.index).toBe(2);
    actor.send({ type: 'image.selected', index: 1 });
    expect(actor.getSnapshot().context.index).toBe(1);
  });

  it('stays on a single image', () => {
    const actor = opened(0, [images[0] as ViewerImage]);
    actor.send({ type: 'image.next' });
    actor.send({ type: 'image.previous' });
    expect(actor.getSnapshot().context.index).toBe(0);
  });

  it('zooms within bounds, rotates, and resets both on another image', () => {
    const actor = opened(0);
    actor.send({ type: 'zoom.in' });
    expect(actor.getSnapshot().context.zoom).toBe(1.25);
    for (let i = 0; i < 40; i++) actor.send({ type: 'zoom.in' });
    expect(actor.getSnapshot().context.zoom).toBe(MAX_ZOOM);
    for (let i = 0; i < 40; i++) actor.send({ type: 'zoom.out' });
    expect(actor.getSnapshot().context.zoom).toBe(MIN_ZOOM);
    actor.send({ type: 'zoom.reset' });
    expect(actor.getSnapshot().context.zoom).toBe(1);
    for (const expected of [90, 180, 270, 0, 90]) {
      actor.send({ type: 'image.rotated' });
      expect(actor.getSnapshot().context.rotation).toBe(expected);
    }
    actor.send({ type: 'zoom.in' });
    actor.send({ type: 'image.next' });
    expect(actor.getSnapshot().context).toMatchObject({ zoom: 1, rotation: 0 });
  });

  it('hides the controls after 3500 ms without movement and shows them on movement', () => {
    const actor = opened(0);
    expect(actor.getSnapshot().hasTag('controlsVisible')).toBe(true);
    vi.advanceTimersByTime(CONTROLS_HIDE_MS - 1);
    expect(actor.getSnapshot().hasTag('controlsVisible')).toBe(true);
    actor.send({ type: 'pointer.moved' });
    vi.advanceTimersByTime(CONTROLS_HIDE_MS - 1);
    expect(actor.getSnapshot().hasTag('controlsVisible')).toBe(true);
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().hasTag('controlsVisible')).toBe(false);
    actor.send({ type: 'pointer.moved' });
    expect(actor.getSnapshot().hasTag('controlsVisible')).toBe(true);
  });

  it('closes and forgets the group', () => {
    const actor = opened(2);
    actor.send({ type: 'viewer.closed' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ images: [], index: 0 });
  });
});

describe('keyToEvent', () => {
  it.each([
    ['Escape', 'viewer.closed'],
    ['q', 'viewer.closed'],
    ['Q', 'viewer.closed'],
    ['ArrowLeft', 'image.previous'],
    ['h', 'image.previous'],
    ['ArrowRight', 'image.next'],
    ['l', 'image.next'],
    ['+', 'zoom.in'],
    ['=', 'zoom.in'],
    ['-', 'zoom.out'],
    ['0', 'zoom.reset'],
    ['r', 'image.rotated'],
  ])('%s → %s', (key, type) => {
    expect(keyToEvent({ key })?.type).toBe(type);
  });

  it('ignores other keys and shortcuts with modifiers', () => {
    expect(keyToEvent({ key: 'x' })).toBeNull();
    expect(keyToEvent({ key: 'Tab' })).toBeNull();
    expect(keyToEvent({ key: 'l', ctrlKey: true })).toBeNull();
    expect(keyToEvent({ key: 'q', metaKey: true })).toBeNull();
  });
});
