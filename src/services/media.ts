/** The camera (face photo at sign-in): open it, take a still, release it. */
export class CameraDeniedError extends Error {
  override readonly name = 'CameraDeniedError';
}

export async function openCamera(): Promise<MediaStream> {
  try {
    return await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 }, audio: false });
  } catch (error) {
    throw new CameraDeniedError(error instanceof Error ? error.message : String(error));
  }
}

export function closeCamera(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** A JPEG data URL of the video's current frame. */
export function takePhoto(video: HTMLVideoElement): string {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth || 640;
  canvas.height = video.videoHeight || 480;
  canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/jpeg', 0.9);
}
