/**
 * Uploading a document (POST /document, docs/product/entities.md#upload-payload): pages are chosen (or dropped), checked on the
 * client (kind and size), sent with progress; a failure keeps every chosen page and the type so the user
 * can try again. Pure: the upload is the `upload` callback actor, provided by the app.
 */
import { assign, fromCallback, setup } from 'xstate';
import { MAX_PAGES, type PageFileProblem, pageFileProblem } from './documents';

export interface PageFile {
  name: string;
  type: string;
  size: number;
}

export interface RefusedFile {
  name: string;
  problem: PageFileProblem | 'tooMany';
}

export interface UploadContext<F extends PageFile = PageFile> {
  profileId: number;
  files: F[];
  refused: RefusedFile[];
  typeId: number | null;
  /** 0..1 while sending. */
  progress: number;
  /** The server's detail (or null for a failure without one) after a failed try. */
  error: string | null;
  failed: boolean;
  /** The user tried to send without pages or type. */
  tried: boolean;
}

export type UploadEvent<F extends PageFile = PageFile> =
  | { type: 'files.added'; files: F[] }
  | { type: 'file.removed'; index: number }
  | { type: 'type.chosen'; typeId: number | null }
  | { type: 'upload.submitted' }
  | { type: 'upload.progress'; progress: number }
  | { type: 'upload.done'; documentId: number }
  | { type: 'upload.failed'; detail: string | null; status: number }
  | { type: 'upload.cancelled' };

export interface UploadInput<F extends PageFile = PageFile> {
  profileId: number;
  typeId: number;
  files: F[];
}

export const documentUploadMachine = setup({
  types: {
    context: {} as UploadContext,
    events: {} as UploadEvent,
    input: {} as { profileId: number },
    tags: {} as 'busy',
  },
  actors: {
    /** Sends the pages; reports `upload.progress`, then `upload.done` or `upload.failed`. */
    upload: fromCallback<UploadEvent, UploadInput>(() => {
      throw new Error('upload is provided by the app');
    }),
  },
  actions: {
    /** "Operation completed successfully" and fresh lists; provided by the app. */
    notifyUploaded: (_, _documentId: number) => {},
    /** The failure message (403: no permission); provided by the app. */
    notifyFailed: (_, _failure: { detail: string | null; status: number }) => {},
  },
  guards: {
    ready: ({ context }) => context.files.length > 0 && context.typeId !== null,
  },
}).createMachine({
  id: 'documentUpload',
  context: ({ input }) => ({
    profileId: input.profileId,
    files: [],
    refused: [],
    typeId: null,
    progress: 0,
    error: null,
    failed: false,
    tried: false,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'files.added': {
          actions: assign(({ context, event }) => {
            const files = [...context.files];
            const refused: RefusedFile[] = [];
            for (const file of event.files) {
              const problem = pageFileProblem(file);
              if (problem) refused.push({ name: file.name, problem });
              else if (files.length >= MAX_PAGES) refused.push({ name: file.name, problem: 'tooMany' });
              else files.push(file);
            }
            return { files, refused };
          }),
        },
        'file.removed': {
          actions: assign({
            files: ({ context, event }) => context.files.filter((_, i) => i !== event.index),
            refused: [],
          }),
        },
        'type.chosen': { actions: assign({ typeId: ({ event }) => event.typeId }) },
        'upload.submitted': [{ guard: 'ready', target: 'uploading' }, { actions: assign({ tried: true }) }],
      },
    },
    uploading: {
      tags: 'busy',
      entry: assign({ progress: 0, error: null, failed: false, refused: [] }),
      invoke: {
        src: 'upload',
        input: ({ context }) => ({
          profileId: context.profileId,
          typeId: context.typeId as number,
          files: context.files,
        }),
      },
      on: {
        'upload.progress': { actions: assign({ progress: ({ event }) => event.progress }) },
        'upload.done': {
          target: 'done',
          actions: { type: 'notifyUploaded', params: ({ event }) => event.documentId },
        },
        'upload.failed': {
          target: 'editing',
          // Nothing chosen is lost: pages and type stay for another try.
          actions: [
            assign({ error: ({ event }) => event.detail, failed: true }),
            { type: 'notifyFailed', params: ({ event }) => ({ detail: event.detail, status: event.status }) },
          ],
        },
        'upload.cancelled': { target: 'editing' },
      },
    },
    done: { type: 'final' },
  },
});
