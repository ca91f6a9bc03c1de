import { useEffect, useRef } from 'react';

/** A <video> showing a live MediaStream (the agent's call screen and the customer's join page). */
export function StreamVideo({
  stream,
  muted = false,
  label,
  className,
  videoRef,
}: {
  stream: MediaStream | null;
  muted?: boolean;
  label: string;
  className?: string;
  videoRef?: (video: HTMLVideoElement | null) => void;
}) {
  const ref = useRef<HTMLVideoElement | null>(null);
  useEffect(() => {
    const video = ref.current;
    if (video && video.srcObject !== stream) video.srcObject = stream;
  }, [stream]);
  return (
    <video
      ref={(video) => {
        ref.current = video;
        videoRef?.(video);
      }}
      className={className}
      autoPlay
      playsInline
      muted={muted}
      aria-label={label}
    />
  );
}
