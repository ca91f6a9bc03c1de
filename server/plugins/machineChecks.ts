import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fp from 'fastify-plugin';
import type { CallScreenshot } from '#contract/identProcedure';
import type { MachineCheck } from '#contract/machineChecks';
import { screenshotFile } from '../domain/callScreenshots';
import { type CheckDeps, runFaceMatch, runMrz } from '../domain/machineChecks/checks';
import { requireCall } from '../domain/videocalls/calls';
import { unavailableFaceMatcher } from '../integrations/faceMatch';
import { createThreadedFaceMatcher } from '../integrations/faceMatchThreaded';
import { createTesseractMrzOcr, unavailableMrzOcr } from '../integrations/mrzOcr';
import { userRoom } from '../realtime/rooms';

/** Starts the checks a new screenshot calls for; `settled` waits for every check running now. */
export interface MachineChecks {
  screenshotTaken(companyId: number, shot: CallScreenshot): void;
  settled(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    machineChecks: MachineChecks;
  }
}

const require = createRequire(import.meta.url);

/** The face model as the evidence names it: human's package version and its embedding model. */
function faceEngine(enabled: boolean) {
  if (!enabled) return { name: 'none', version: '0' };
  // The package's `exports` map hides its package.json: read it beside the resolved entry point.
  const root = dirname(dirname(require.resolve('@vladmandic/human')));
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { name: '@vladmandic/human', version: `${version} (BlazeFace, FaceRes)` };
}

/**
 * The machine checks beside the agent (`server/domain/machineChecks/checks.ts`): a face screenshot or an ID
 * front runs the face match (once both exist), an ID back or front runs the MRZ read. They run after the
 * screenshot's answer, never in its way; each result goes to the call's agent (`call.check_done`). The OCR and
 * the face model each run in a worker thread, started on first use and stopped at close, after the checks
 * running then.
 */
export const machineChecksPlugin = fp(async (app) => {
  const { ctx } = app;
  const enabled = ctx.config.machineChecks.enabled;
  const ocr = enabled
    ? createTesseractMrzOcr({ onError: (error) => app.log.error({ err: error }, 'MRZ OCR failed to start') })
    : unavailableMrzOcr();
  const faceModel = ctx.config.faceMatch.engine !== 'off';
  // Its own thread: finding faces takes up to two seconds of CPU that the event loop must not wait out.
  const faceMatcher =
    enabled && faceModel
      ? createThreadedFaceMatcher({
          minSimilarity: ctx.config.machineChecks.faceThreshold,
          onError: (error) => app.log.error({ err: error }, 'face model thread failed'),
        })
      : null;
  const deps: CheckDeps = {
    db: ctx.db,
    storage: ctx.storage,
    faceMatcher: faceMatcher ?? unavailableFaceMatcher(),
    faceEngine: faceEngine(faceModel),
    ocr,
    faceThreshold: ctx.config.machineChecks.faceThreshold,
  };
  const running = new Set<Promise<unknown>>();

  const tell = (agentId: number | null, check: MachineCheck | null) => {
    if (!check || agentId === null || !app.hasDecorator('hub')) return;
    app.hub.io.to(userRoom(agentId)).emit('call.check_done', { call_id: check.call, check });
  };

  async function run(companyId: number, shot: CallScreenshot) {
    const call = await requireCall(ctx.db, companyId, shot.call);
    const checks: Promise<MachineCheck | null>[] = [];
    if (shot.kind === 'face_screenshot' || shot.kind === 'id_front') checks.push(runFaceMatch(deps, call.id));
    if (shot.kind === 'id_back' || shot.kind === 'id_front') {
      const row = await screenshotFile(ctx.db, companyId, call.id, shot.id);
      checks.push(runMrz(deps, call, { id: row.id, key: row.storageKey }));
    }
    for (const check of checks) tell(call.agentId, await check);
  }

  app.decorate('machineChecks', {
    screenshotTaken(companyId, shot) {
      if (!enabled) return;
      const task = run(companyId, shot).catch((error) =>
        app.log.error({ err: error }, 'machine check failed'),
      );
      running.add(task);
      void task.finally(() => running.delete(task));
    },
    async settled() {
      await Promise.allSettled([...running]);
    },
  } satisfies MachineChecks);

  app.addHook('onClose', async () => {
    await Promise.allSettled([...running]);
    await ocr.close();
    await faceMatcher?.close();
  });
});
