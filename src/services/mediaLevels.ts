/**
 * The customer's device check: how bright the camera's picture is and how loud the
 * microphone is, sampled twice a second from the stream the call will use. The arithmetic is pure; `watchLevels`
 * reads the frames (a small canvas) and the sound (an AnalyserNode) in the browser.
 */

/** Below this mean brightness (0 black … 1 white) the picture is too dark to read an ID. */
export const DARK_BRIGHTNESS = 0.2;
/** Below this loudness (root mean square of the samples, 0 … 1) nothing is heard. */
export const QUIET_LOUDNESS = 0.01;

export interface Levels {
  /** Mean brightness of the picture, 0 … 1 (null: no picture yet). */
  brightness: number | null;
  /** Loudness of the sound, 0 … 1 (null: no sound track, or the browser holds audio until the page is used). */
  loudness: number | null;
}

/** Mean relative luminance (Rec. 709 weights) of RGBA pixels, 0 … 1. */
export function brightnessOf(rgba: Uint8ClampedArray): number {
  const pixels = Math.floor(rgba.length / 4);
  if (pixels === 0) return 0;
  let sum = 0;
  for (let i = 0; i < pixels * 4; i += 4)
    sum += 0.2126 * (rgba[i] ?? 0) + 0.7152 * (rgba[i + 1] ?? 0) + 0.0722 * (rgba[i + 2] ?? 0);
  return sum / pixels / 255;
}

/** Root mean square of audio samples in −1 … 1, clamped to 0 … 1. */
export function loudnessOf(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.min(1, Math.sqrt(sum / samples.length));
}

const SAMPLE_MS = 500;
const FRAME_WIDTH = 64;
const FRAME_HEIGHT = 48;

/** Reports the stream's levels every half second until the returned function is called. */
export function watchLevels(stream: MediaStream, report: (levels: Levels) => void): () => void {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  void video.play().catch(() => undefined);
  const canvas = document.createElement('canvas');
  canvas.width = FRAME_WIDTH;
  canvas.height = FRAME_HEIGHT;
  const drawing = canvas.getContext('2d', { willReadFrequently: true });

  const hasSound = stream.getAudioTracks().length > 0;
  const audio = hasSound ? new AudioContext() : null;
  const analyser = audio?.createAnalyser() ?? null;
  if (audio && analyser) audio.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser?.fftSize ?? 0);
  // A browser may hold audio until the page is used: the sound is measured from the first click or key on.
  const resume = () => void audio?.resume().catch(() => undefined);
  resume();
  document.addEventListener('pointerdown', resume);
  document.addEventListener('keydown', resume);

  const timer = setInterval(() => {
    let brightness: number | null = null;
    if (drawing && video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) {
      drawing.drawImage(video, 0, 0, FRAME_WIDTH, FRAME_HEIGHT);
      brightness = brightnessOf(drawing.getImageData(0, 0, FRAME_WIDTH, FRAME_HEIGHT).data);
    }
    let loudness: number | null = null;
    if (analyser && audio?.state === 'running') {
      analyser.getFloatTimeDomainData(samples);
      loudness = loudnessOf(samples);
    }
    report({ brightness, loudness });
  }, SAMPLE_MS);

  return () => {
    clearInterval(timer);
    document.removeEventListener('pointerdown', resume);
    document.removeEventListener('keydown', resume);
    video.srcObject = null;
    void audio?.close().catch(() => undefined);
  };
}
