/** A JPEG of the video's current frame, or null while it shows nothing (the ID snapshot, step screenshots). */
export function frameOf(video: HTMLVideoElement | null): Promise<Blob | null> {
  if (!video || video.videoWidth === 0) return Promise.resolve(null);
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')?.drawImage(video, 0, 0);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92));
}
