import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodeImage } from './images';

/**
 * Compares the face on a login photo with the user's auth photo. `unavailable`: this server cannot
 * compare faces (no engine, or it failed to load), so photo login must be refused.
 */
export interface FaceMatcher {
  compare(reference: Buffer, probe: Buffer): Promise<FaceComparison>;
}

export type FaceComparison =
  | { outcome: 'match'; similarity: number }
  | { outcome: 'no_match'; similarity: number | null; noFaceIn?: 'reference' | 'probe' }
  | { outcome: 'unavailable'; reason: string };

/** Refuses every comparison (`FACE_MATCH=off`, or no engine on this machine). */
export const unavailableFaceMatcher = (reason = 'face matching is off'): FaceMatcher => ({
  compare: async () => ({ outcome: 'unavailable', reason }),
});

/** The few parts of @vladmandic/human used here (its own types pull in the whole of tfjs). */
interface HumanFace {
  score: number;
  embedding?: number[];
  box: [number, number, number, number];
}
interface HumanTensor {
  dispose?: () => void;
}
interface HumanInstance {
  load(): Promise<void>;
  detect(input: HumanTensor): Promise<{ face: HumanFace[] }>;
  tf: {
    tensor4d(data: Float32Array, shape: number[], dtype: string): HumanTensor;
    dispose(t: HumanTensor): void;
    getBackend(): string;
  };
  match: { similarity(a: number[], b: number[]): number };
}

const require = createRequire(import.meta.url);

function humanPaths() {
  // The package's `exports` map has no usable subpath for the WASM build: resolve files directly.
  const humanRoot = dirname(dirname(require.resolve('@vladmandic/human')));
  return {
    humanRoot,
    build: join(humanRoot, 'dist', 'human.node-wasm.js'),
    models: join(humanRoot, 'models'),
    wasm: dirname(require.resolve('@tensorflow/tfjs-backend-wasm')),
  };
}

/**
 * Runs `load` with `fetch` able to read `file://` addresses: tfjs loads models through `fetch`, which
 * Node cannot do for files. Other addresses go to the real `fetch`; it is put back afterwards.
 */
async function withFileFetch<T>(load: () => Promise<T>): Promise<T> {
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('file://')) return realFetch(input, init);
    const body = readFileSync(new URL(url));
    const type = url.endsWith('.json') ? 'application/json' : 'application/octet-stream';
    return new Response(body, { status: 200, headers: { 'content-type': type } });
  }) as typeof fetch;
  try {
    return await load();
  } finally {
    globalThis.fetch = realFetch;
  }
}

/**
 * The default engine: @vladmandic/human with the models its npm package ships (BlazeFace detector,
 * FaceMesh alignment, FaceRes embedding, 1024 numbers), on TensorFlow.js' WebAssembly backend, in this
 * process; images decoded by jpeg-js and pngjs. Nothing is downloaded. Two faces match when human's
 * similarity (0..1) reaches `minSimilarity`. Loaded on first use; when loading fails every comparison
 * answers `unavailable`.
 */
export function createHumanFaceMatcher(
  options: { minSimilarity: number; onError?: (error: unknown) => void } = { minSimilarity: 0.7 },
): FaceMatcher {
  let engine: Promise<HumanInstance | null> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const references = new Map<string, number[] | null>();

  async function loadEngine(): Promise<HumanInstance | null> {
    try {
      const paths = humanPaths();
      const { Human } = require(paths.build) as { Human: new (config: object) => HumanInstance };
      const human = new Human({
        backend: 'wasm',
        wasmPath: `${pathToFileURL(paths.wasm).href}/`,
        modelBasePath: `${pathToFileURL(paths.models).href}/`,
        debug: false,
        cacheModels: false,
        // Every photo is a new picture: never reuse a previous frame's result.
        cacheSensitivity: 0,
        filter: { enabled: false },
        face: {
          enabled: true,
          detector: { rotation: true, maxDetected: 1, minConfidence: 0.5, skipFrames: 0, skipTime: 0 },
          mesh: { enabled: true },
          iris: { enabled: false },
          description: { enabled: true, skipFrames: 0, skipTime: 0 },
          emotion: { enabled: false },
          antispoof: { enabled: false },
          liveness: { enabled: false },
        },
        body: { enabled: false },
        hand: { enabled: false },
        object: { enabled: false },
        gesture: { enabled: false },
        segmentation: { enabled: false },
      });
      await withFileFetch(() => human.load());
      return human;
    } catch (error) {
      options.onError?.(error);
      return null;
    }
  }

  async function embeddingOf(human: HumanInstance, bytes: Buffer): Promise<number[] | null> {
    const image = decodeImage(bytes);
    const floats = Float32Array.from(image.data);
    const tensor = human.tf.tensor4d(floats, [1, image.height, image.width, 3], 'float32');
    try {
      const result = await human.detect(tensor);
      const face = result.face[0];
      return face?.embedding && face.embedding.length > 0 ? face.embedding : null;
    } finally {
      human.tf.dispose(tensor);
    }
  }

  /** One comparison at a time: the model runs in this thread and keeps state between calls. */
  function serial<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  }

  return {
    compare(reference, probe) {
      return serial(async (): Promise<FaceComparison> => {
        engine ??= loadEngine();
        const human = await engine;
        if (!human) return { outcome: 'unavailable', reason: 'the face model could not be loaded' };
        const key = createHash('sha256').update(reference).digest('hex');
        let known = references.get(key);
        if (known === undefined) {
          known = await embeddingOf(human, reference).catch(() => null);
          if (references.size >= 200) references.clear();
          references.set(key, known);
        }
        const seen = await embeddingOf(human, probe).catch(() => null);
        if (!known || !seen)
          return { outcome: 'no_match', similarity: null, noFaceIn: known ? 'probe' : 'reference' };
        const similarity = human.match.similarity(known, seen);
        return similarity >= options.minSimilarity
          ? { outcome: 'match', similarity }
          : { outcome: 'no_match', similarity };
      });
    },
  };
}
