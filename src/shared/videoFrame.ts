/**
 * How long a capture waits for the video to show a frame: a video element that was just put in place (the call
 * screen drawn again, e.g. after a language change mid-call) shows nothing for a moment while the stream is the
 * same. A click in that moment used to fail with "the customer's picture has not arrived yet".
 */
export const FRAME_WAIT_MS = 3_000;
const POLL_MS = 50;

/**
 * A JPEG of the video's current frame (the ID snapshot, step screenshots): the element is asked for again until
 * it shows a frame, for at most `waitMs`; null if it shows nothing by then.
 */
export async function frameOf(
  video: () => HTMLVideoElement | null,
  waitMs = FRAME_WAIT_MS,
): Promise<Blob | null> {
  const until = Date.now() + waitMs;
  let shown = video();
  while (!shown || shown.videoWidth === 0) {
    if (Date.now() >= until) return null;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    shown = video();
  }
  const canvas = document.createElement('canvas');
  canvas.width = shown.videoWidth;
  canvas.height = shown.videoHeight;
  canvas.getContext('2d')?.drawImage(shown, 0, 0);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92));
}
