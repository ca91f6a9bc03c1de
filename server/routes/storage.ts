import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context';
import { type EvidenceFile, evidenceOf, recordHashMismatch } from '../domain/evidence';
import { forbidden, notFound } from '../errors';
import { PUBLIC } from '../http/access';
import { readerOf } from '../http/readerUrls';
import { recordRead } from '../plugins/accessLog';
import type { ByteRange } from '../storage/storage';

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
};

/** A file read only in part (Range) is checked whole in the background, at most once per key in this time. */
const RANGE_CHECK_EVERY_MS = 10 * 60_000;

/**
 * The one range of a `Range: bytes=…` header within a file of `size` bytes (RFC 9110 section 14): undefined when
 * there is none or it is not one simple byte range (then the whole file is sent), 'unsatisfiable' when it
 * starts past the end.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  const match = header?.trim().match(/^bytes=(\d*)-(\d*)$/);
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** Stored files, reachable only through a signed address made by Storage.signedUrl. */
export function storageRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const rangeChecked = new Map<string, number>();

  /** Hashes `stream` to its end and reports a hash other than the stored one (logged and audited). */
  const check = (stream: Readable, key: string, file: EvidenceFile, log: FastifyBaseLogger) => {
    const hash = createHash('sha256');
    stream.on('data', (chunk: Buffer) => hash.update(chunk));
    stream.once('end', () => {
      const actual = hash.digest('hex');
      if (actual === file.sha256) return;
      log.error(
        { key, expected: file.sha256, actual, object: file.object, objectId: file.objectId },
        'stored file does not match its SHA-256',
      );
      recordHashMismatch(ctx.db, file, key, actual).catch((error) =>
        log.error({ err: error }, 'audit of a hash mismatch failed'),
      );
    });
  };

  /** Reads the whole file in the background to check it (a Range request read only part of it). */
  const checkInBackground = (key: string, file: EvidenceFile, log: FastifyBaseLogger) => {
    const now = Date.now();
    if (now - (rangeChecked.get(key) ?? 0) < RANGE_CHECK_EVERY_MS) return;
    if (rangeChecked.size > 10_000) rangeChecked.clear();
    rangeChecked.set(key, now);
    const whole = ctx.storage.open(key);
    whole.once('error', (error) => log.warn({ err: error, key }, 'background check of a stored file failed'));
    check(whole, key, file, log);
  };

  return async (app) => {
    app.get(
      '/storage/*',
      {
        config: { access: PUBLIC },
        schema: {
          hide: true,
          querystring: z.object({
            expires: z.coerce.number().int(),
            signature: z.string().min(1).max(100),
            // The staff user the address was made for (server/http/readerUrls.ts).
            reader: z.coerce.number().int().positive().optional(),
            rsig: z.string().min(1).max(100).optional(),
          }),
        },
      },
      async (request, reply) => {
        const key = (request.params as { '*': string })['*'];
        if (!ctx.storage.verifySignature(key, request.query.expires, request.query.signature)) {
          throw forbidden('Invalid or expired file address');
        }
        const reader = readerOf(ctx.config.jwtSecret, key, request.query);
        // A seek within a recording is a Range from past its start: one read is logged per playing, not per seek.
        const rangeStart = /^\s*bytes=(\d+)-/.exec(request.headers.range ?? '')?.[1];
        if (reader !== null && (rangeStart === undefined || rangeStart === '0'))
          recordRead(request, {
            kind: key.startsWith('recordings/')
              ? 'recording_played'
              : key.startsWith('screenshots/')
                ? 'screenshot_viewed'
                : 'document_page_viewed',
            actorId: reader,
            target: { storageKey: key },
          });
        const [size, evidence] = await Promise.all([ctx.storage.size(key), evidenceOf(ctx.db, key)]);
        if (size === null) throw notFound();
        const range = parseRange(request.headers.range, size);
        reply.header('accept-ranges', 'bytes');
        if (range === 'unsatisfiable') {
          return reply
            .code(416)
            .header('content-range', `bytes */${size}`)
            .send({
              detail: `The range is outside the file (${size} bytes)`,
            });
        }
        reply
          .header('content-type', CONTENT_TYPES[extname(key).toLowerCase()] ?? 'application/octet-stream')
          .header('cache-control', 'private, max-age=3600');
        if (range) {
          if (evidence) checkInBackground(key, evidence, request.log);
          return reply
            .code(206)
            .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
            .header('content-length', range.end - range.start + 1)
            .send(ctx.storage.open(key, range));
        }
        const stream = ctx.storage.open(key);
        if (evidence) check(stream, key, evidence, request.log);
        return reply.header('content-length', size).send(stream);
      },
    );
  };
}
