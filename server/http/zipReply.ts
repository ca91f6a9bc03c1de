import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Answers a ZIP built while it streams (an evidence package, a person's export) as a download no cache keeps.
 * Its status and headers are gone before the ZIP is done, so a failure part way can only cut the body short:
 * it is logged with `failure` saying what broke. A client that goes away ends the stream (fastify destroys it),
 * which stops reading the stored files behind it.
 */
export function sendZip(reply: FastifyReply, stream: Readable, filename: string, failure: string) {
  stream.on('error', (error) => reply.log.error({ err: error }, failure));
  return reply
    .header('content-type', 'application/zip')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(stream);
}
