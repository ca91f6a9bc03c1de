import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { videoCalls } from '../../server/db/schema';

/** A call of Acme's `profileId` that `agentId` answered and that ended a minute later, with no recording. */
export async function endedCall(app: FastifyInstance, agentId: number, profileId = 3): Promise<number> {
  const [row] = await app.ctx.db
    .insert(videoCalls)
    .values({
      companyId: 1,
      profileId,
      agentId,
      roomId: randomUUID(),
      status: 3,
      callStartTime: new Date(Date.now() - 60_000),
      callEndTime: new Date(),
    })
    .returning({ id: videoCalls.id });
  return row?.id as number;
}
