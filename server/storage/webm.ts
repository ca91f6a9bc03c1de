/**
 * MediaRecorder's webm has no duration and no cues, so a player can neither show its length nor seek
 * (browser-tests note, pitfall 4). `seekableHead` reads a stored recording once, as a stream, with ts-ebml's
 * decoder and reader, and answers the header that makes it seekable (the metadata with the duration and the
 * cues, as RecordRTC's getSeekableBlob builds it): the fixed file is that header followed by the stored bytes
 * from `bodyStart` on.
 */
import type { Readable } from 'node:stream';
import { Decoder, Reader, tools } from 'ts-ebml';

export interface SeekableHead {
  head: Buffer;
  bodyStart: number;
  /** Length in seconds. */
  duration: number;
}

/** The seekable header of a webm stream, or null when the stream is no webm with clusters to index. */
export async function seekableHead(source: Readable): Promise<SeekableHead | null> {
  const decoder = new Decoder();
  const reader = new Reader();
  reader.logging = false;
  reader.drop_default_duration = false;
  try {
    for await (const chunk of source) {
      const bytes = chunk as Buffer;
      const view = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      for (const element of decoder.decode(view)) reader.read(element);
    }
    reader.stop();
  } catch {
    return null;
  }
  if (reader.metadatas.length === 0 || reader.cues.length === 0 || !(reader.duration > 0)) return null;
  const head = Buffer.from(
    unpooled(() =>
      tools.makeMetadataSeekable(
        reader.metadatas,
        reader.duration,
        spaced(reader.cues, reader.timestampScale),
      ),
    ),
  );
  const seconds = (reader.duration * reader.timestampScale) / 1e9;
  return { head, bodyStart: reader.metadataSize, duration: seconds };
}

/**
 * A player seeks to the last cue before the moment asked and decodes on from there, so a cue every few seconds
 * serves as well as one per cluster (MediaRecorder starts a cluster about every half second); and ts-ebml writes
 * cues in a time that grows with their count squared: 15 s of the server's CPU for the 3,300 cues of a half-hour
 * call. A cue CUE_SPACING_NS or more after the last one kept is kept, the first always.
 */
const CUE_SPACING_NS = 5e9;

function spaced<T extends { CueTime: number }>(cues: T[], timestampScale: number): T[] {
  const spacing = CUE_SPACING_NS / timestampScale;
  let last = Number.NEGATIVE_INFINITY;
  return cues.filter((cue) => {
    if (cue.CueTime - last < spacing) return false;
    last = cue.CueTime;
    return true;
  });
}

/**
 * ts-ebml's encoder answers `Buffer.concat(…).buffer`: in Node a small Buffer lives inside a shared pool, so
 * that ArrayBuffer is the whole pool, not the header. With the pool off for this one synchronous call, each
 * Buffer has an ArrayBuffer of its own, exactly its size.
 */
function unpooled<T>(run: () => T): T {
  const poolSize = Buffer.poolSize;
  Buffer.poolSize = 0;
  try {
    return run();
  } finally {
    Buffer.poolSize = poolSize;
  }
}
