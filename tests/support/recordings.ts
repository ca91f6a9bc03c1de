/**
 * Recordings as MediaRecorder writes them, of any length, made from the test fixture (a real one of 3 s):
 * for benchmarks and tests of what a long call's recording costs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Decoder } from 'ts-ebml';

const FIXTURE = join(import.meta.dirname, '..', 'server', 'fixtures', 'recording.webm');

/** An EBML unsigned integer element of 8 data bytes: the same width whatever the value. */
function uintElement(id: number, value: number): Buffer {
  const element = Buffer.alloc(2 + 8);
  element[0] = id;
  element[1] = 0x88;
  element.writeBigUInt64BE(BigInt(value), 2);
  return element;
}

/**
 * A webm of at least `bytes` as MediaRecorder writes a long call: the fixture's header, then its clusters
 * (unknown size, as MediaRecorder writes them) again and again, each copy's cluster timestamps moved past the
 * previous copy's last frame. The blocks' own times are relative to their cluster, so they stay as they are.
 */
export function longRecording(bytes: number): Buffer {
  const fixture = readFileSync(FIXTURE);
  const elements = new Decoder().decode(
    fixture.buffer.slice(fixture.byteOffset, fixture.byteOffset + fixture.byteLength) as ArrayBuffer,
  );
  const clusters: { start: number; stampStart: number; stampEnd: number; stamp: number }[] = [];
  let lastFrame = 0;
  for (const element of elements) {
    if (element.name === 'Cluster' && element.type === 'm' && !element.isEnd) {
      clusters.push({ start: element.tagStart, stampStart: 0, stampEnd: 0, stamp: 0 });
    } else if (element.name === 'Timestamp' && element.type === 'u') {
      const cluster = clusters.at(-1);
      if (!cluster) continue;
      Object.assign(cluster, {
        stampStart: element.tagStart,
        stampEnd: element.dataEnd,
        stamp: element.value,
      });
    } else if (element.name === 'SimpleBlock' && element.type === 'b') {
      // After the track number (a one-byte vint here), a signed 16-bit time relative to the cluster.
      lastFrame = Math.max(lastFrame, (clusters.at(-1)?.stamp ?? 0) + element.value.readInt16BE(1));
    }
  }
  const first = clusters[0];
  if (!first) throw new Error('the fixture has no clusters');
  const period = lastFrame + 100;
  const parts = [fixture.subarray(0, first.start)];
  let size = first.start;
  for (let copy = 0; size < bytes; copy++) {
    clusters.forEach((cluster, index) => {
      const end = clusters[index + 1]?.start ?? fixture.length;
      const part = Buffer.concat([
        fixture.subarray(cluster.start, cluster.stampStart),
        uintElement(0xe7, cluster.stamp + copy * period),
        fixture.subarray(cluster.stampEnd, end),
      ]);
      parts.push(part);
      size += part.length;
    });
  }
  return Buffer.concat(parts);
}
