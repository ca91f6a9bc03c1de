/**
 * The full-screen image viewer (docs/product/README.md, docs/product/states.md, docs/product/constants.md): closed or open on one image of a group; next and previous
 * wrap around the group; zoom and rotation belong to the image shown and reset when it changes; the
 * controls hide after 3500 ms without pointer movement and come back on movement. Pure: the view maps keys
 * with `keyToEvent` and sends the events.
 */
import { assign, setup } from 'xstate';

/** Controls hide after this long without mouse movement (docs/product/constants.md). */
export const CONTROLS_HIDE_MS = 3500;
export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 4;
export const ZOOM_STEP = 0.25;

export interface ViewerImage {
  src: string;
  title: string;
  /** The original, opened in a new tab by the source-link button (defaults to `src`). */
  href?: string;
  /** PDF pages cannot be drawn as images: the viewer offers the original instead. */
  kind?: 'image' | 'pdf';
}

export interface ImageViewerContext {
  images: ViewerImage[];
  index: number;
  zoom: number;
  /** Degrees clockwise: 0, 90, 180 or 270. */
  rotation: number;
}

export type ImageViewerEvent =
  | { type: 'viewer.opened'; images: ViewerImage[]; index: number }
  | { type: 'viewer.closed' }
  | { type: 'image.next' }
  | { type: 'image.previous' }
  | { type: 'image.selected'; index: number }
  | { type: 'zoom.in' }
  | { type: 'zoom.out' }
  | { type: 'zoom.reset' }
  | { type: 'image.rotated' }
  | { type: 'pointer.moved' };

/** The viewer's keys (docs/product/README.md): Escape and q close; ArrowLeft/h and ArrowRight/l move; + - 0 zoom; r rotates. */
export function keyToEvent(event: {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}): ImageViewerEvent | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  switch (event.key) {
    case 'Escape':
    case 'q':
    case 'Q':
      return { type: 'viewer.closed' };
    case 'ArrowLeft':
    case 'h':
      return { type: 'image.previous' };
    case 'ArrowRight':
    case 'l':
      return { type: 'image.next' };
    case '+':
    case '=':
      return { type: 'zoom.in' };
    case '-':
      return { type: 'zoom.out' };
    case '0':
      return { type: 'zoom.reset' };
    case 'r':
      return { type: 'image.rotated' };
    default:
      return null;
  }
}

const clampZoom = (zoom: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.round(zoom * 100) / 100));
const wrap = (index: number, length: number) => ((index % length) + length) % length;
const freshView = { zoom: 1, rotation: 0 };

export const imageViewerMachine = setup({
  types: {
    context: {} as ImageViewerContext,
    events: {} as ImageViewerEvent,
    tags: {} as 'open' | 'controlsVisible',
  },
  guards: {
    hasImages: (_, images: ViewerImage[]) => images.length > 0,
    isGroup: ({ context }) => context.images.length > 1,
  },
  delays: { controlsTimeout: CONTROLS_HIDE_MS },
}).createMachine({
  id: 'imageViewer',
  context: { images: [], index: 0, ...freshView },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'viewer.opened': {
          guard: { type: 'hasImages', params: ({ event }) => event.images },
          target: 'open',
          actions: assign(({ event }) => ({
            images: event.images,
            index: wrap(event.index, event.images.length),
            ...freshView,
          })),
        },
      },
    },
    open: {
      tags: 'open',
      on: {
        'viewer.closed': { target: 'closed', actions: assign({ images: [], index: 0, ...freshView }) },
        'image.next': {
          guard: 'isGroup',
          actions: assign(({ context }) => ({
            index: wrap(context.index + 1, context.images.length),
            ...freshView,
          })),
        },
        'image.previous': {
          guard: 'isGroup',
          actions: assign(({ context }) => ({
            index: wrap(context.index - 1, context.images.length),
            ...freshView,
          })),
        },
        'image.selected': {
          actions: assign(({ context, event }) => ({
            index: wrap(event.index, context.images.length),
            ...freshView,
          })),
        },
        'zoom.in': { actions: assign({ zoom: ({ context }) => clampZoom(context.zoom + ZOOM_STEP) }) },
        'zoom.out': { actions: assign({ zoom: ({ context }) => clampZoom(context.zoom - ZOOM_STEP) }) },
        'zoom.reset': { actions: assign({ zoom: 1 }) },
        'image.rotated': { actions: assign({ rotation: ({ context }) => (context.rotation + 90) % 360 }) },
      },
      initial: 'controlsVisible',
      states: {
        controlsVisible: {
          tags: 'controlsVisible',
          after: { controlsTimeout: 'controlsHidden' },
          // Movement restarts the 3500 ms.
          on: { 'pointer.moved': { target: 'controlsVisible', reenter: true } },
        },
        controlsHidden: {
          on: { 'pointer.moved': 'controlsVisible' },
        },
      },
    },
  },
});
