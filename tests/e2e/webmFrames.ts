import { Decoder, tools } from 'ts-ebml';

/** Frames a second of a webm's video track: its frames over the time from the first to the last. */
export function videoFrameRate(webm: Buffer): number {
  const bytes = webm.buffer.slice(webm.byteOffset, webm.byteOffset + webm.byteLength) as ArrayBuffer;
  let entry = { number: 0, type: 0 };
  let videoTrack = -1;
  let clusterTime = 0;
  const times: number[] = [];
  for (const element of new Decoder().decode(bytes)) {
    if (element.name === 'TrackEntry' && element.type === 'm') {
      if (!element.isEnd) entry = { number: 0, type: 0 };
      else if (entry.type === 1) videoTrack = entry.number;
    } else if (element.name === 'TrackNumber' && element.type === 'u') entry.number = element.value;
    else if (element.name === 'TrackType' && element.type === 'u') entry.type = element.value;
    else if (element.name === 'Timestamp' && element.type === 'u') clusterTime = element.value;
    // MediaRecorder writes a frame as a SimpleBlock, or as a Block in a BlockGroup (a frame with alpha).
    else if ((element.name === 'SimpleBlock' || element.name === 'Block') && element.type === 'b') {
      const block = tools.ebmlBlock(element.value);
      if (block.trackNumber === videoTrack) times.push(clusterTime + block.timecode);
    }
  }
  if (times.length < 2) return 0;
  // Timestamps in milliseconds (the default TimestampScale, which MediaRecorder writes).
  const span = (Math.max(...times) - Math.min(...times)) / 1000;
  return (times.length - 1) / span;
}
