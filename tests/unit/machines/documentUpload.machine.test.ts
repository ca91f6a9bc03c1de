import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { MAX_PAGE_BYTES, MAX_PAGES } from '../../../src/machines/documents';
import {
  documentUploadMachine,
  type UploadEvent,
  type UploadInput,
} from '../../../src/machines/documentUpload.machine';

const png = (name = 'front.png') => ({ name, type: 'image/png', size: 1000 });

function start() {
  let sendBack: (event: UploadEvent) => void = () => {};
  const inputs: UploadInput[] = [];
  const aborted = vi.fn();
  const notifyUploaded = vi.fn();
  const notifyFailed = vi.fn();
  const actor = createActor(
    documentUploadMachine.provide({
      actors: {
        upload: fromCallback<UploadEvent, UploadInput>(({ sendBack: back, input }) => {
          sendBack = back;
          inputs.push(input);
          return aborted;
        }),
      },
      actions: {
        notifyUploaded: (_, id) => notifyUploaded(id),
        notifyFailed: (_, failure) => notifyFailed(failure),
      },
    }),
    { input: { profileId: 7 } },
  ).start();
  return { actor, inputs, aborted, notifyUploaded, notifyFailed, reply: (e: UploadEvent) => sendBack(e) };
}

describe('documentUpload machine', () => {
  it('keeps accepted pages in order and names refused ones', () => {
    const { actor } = start();
    actor.send({
      type: 'files.added',
      files: [
        png('1.png'),
        { name: 'x.gif', type: 'image/gif', size: 5 },
        { name: 'big.jpg', type: 'image/jpeg', size: MAX_PAGE_BYTES + 1 },
        png('2.png'),
      ],
    });
    const { files, refused } = actor.getSnapshot().context;
    expect(files.map((f) => f.name)).toEqual(['1.png', '2.png']);
    expect(refused).toEqual([
      { name: 'x.gif', problem: 'type' },
      { name: 'big.jpg', problem: 'size' },
    ]);
    actor.send({ type: 'file.removed', index: 0 });
    expect(actor.getSnapshot().context.files.map((f) => f.name)).toEqual(['2.png']);
  });

  it(`refuses pages beyond ${MAX_PAGES}`, () => {
    const { actor } = start();
    actor.send({
      type: 'files.added',
      files: Array.from({ length: MAX_PAGES + 2 }, (_, i) => png(`${i}.png`)),
    });
    expect(actor.getSnapshot().context.files).toHaveLength(MAX_PAGES);
    expect(actor.getSnapshot().context.refused.map((r) => r.problem)).toEqual(['tooMany', 'tooMany']);
  });

  it('does not send without pages and a type', () => {
    const { actor, inputs } = start();
    actor.send({ type: 'upload.submitted' });
    expect(actor.getSnapshot().context.tried).toBe(true);
    actor.send({ type: 'files.added', files: [png()] });
    actor.send({ type: 'upload.submitted' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(inputs).toHaveLength(0);
  });

  it('sends with progress and finishes', () => {
    const { actor, inputs, reply, notifyUploaded } = start();
    actor.send({ type: 'files.added', files: [png('1.png'), png('2.png')] });
    actor.send({ type: 'type.chosen', typeId: 3 });
    actor.send({ type: 'upload.submitted' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(inputs[0]).toMatchObject({ profileId: 7, typeId: 3 });
    expect(inputs[0]?.files).toHaveLength(2);
    reply({ type: 'upload.progress', progress: 0.5 });
    expect(actor.getSnapshot().context.progress).toBe(0.5);
    reply({ type: 'upload.done', documentId: 42 });
    expect(actor.getSnapshot().status).toBe('done');
    expect(notifyUploaded).toHaveBeenCalledWith(42);
  });

  it('keeps pages and type after a failure and can try again', () => {
    const { actor, inputs, reply, notifyFailed } = start();
    actor.send({ type: 'files.added', files: [png()] });
    actor.send({ type: 'type.chosen', typeId: 3 });
    actor.send({ type: 'upload.submitted' });
    reply({ type: 'upload.failed', detail: 'Pages must be JPEG, PNG, WebP or PDF files', status: 400 });
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(context).toMatchObject({
      failed: true,
      typeId: 3,
      error: 'Pages must be JPEG, PNG, WebP or PDF files',
    });
    expect(context.files).toHaveLength(1);
    expect(notifyFailed).toHaveBeenCalledWith({
      detail: 'Pages must be JPEG, PNG, WebP or PDF files',
      status: 400,
    });
    actor.send({ type: 'upload.submitted' });
    expect(inputs).toHaveLength(2);
    expect(actor.getSnapshot().context.failed).toBe(false);
  });

  it('cancelling stops the upload (its cleanup runs) and keeps the pages', () => {
    const { actor, aborted } = start();
    actor.send({ type: 'files.added', files: [png()] });
    actor.send({ type: 'type.chosen', typeId: 3 });
    actor.send({ type: 'upload.submitted' });
    actor.send({ type: 'upload.cancelled' });
    expect(aborted).toHaveBeenCalled();
    expect(actor.getSnapshot().context.files).toHaveLength(1);
  });
});
