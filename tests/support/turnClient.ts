/**
 * The least of a TURN client (RFC 5766 over UDP, RFC 5389 messages) a test needs to ask a TURN server for a
 * relayed address with given credentials: an Allocate, answered 401 with a realm and nonce, sent again with
 * the long-term credentials' MESSAGE-INTEGRITY. Resolves with the outcome; never throws on a refusal.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';

const MAGIC = 0x2112a442;
const ALLOCATE = 0x0003;
const ALLOCATE_SUCCESS = 0x0103;
const ALLOCATE_ERROR = 0x0113;
const ATTR = {
  username: 0x0006,
  integrity: 0x0008,
  errorCode: 0x0009,
  realm: 0x0014,
  nonce: 0x0015,
  requestedTransport: 0x0019,
  relayedAddress: 0x0016,
} as const;

function attribute(type: number, value: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(type, 0);
  head.writeUInt16BE(value.length, 2);
  const pad = Buffer.alloc((4 - (value.length % 4)) % 4);
  return Buffer.concat([head, value, pad]);
}

function message(type: number, id: Buffer, attributes: Buffer[]): Buffer {
  const body = Buffer.concat(attributes);
  const head = Buffer.alloc(20);
  head.writeUInt16BE(type, 0);
  head.writeUInt16BE(body.length, 2);
  head.writeUInt32BE(MAGIC, 4);
  id.copy(head, 8);
  return Buffer.concat([head, body]);
}

/** The message with a MESSAGE-INTEGRITY over it (its length counting the integrity attribute). */
function withIntegrity(type: number, id: Buffer, attributes: Buffer[], key: Buffer): Buffer {
  const unsigned = message(type, id, attributes);
  unsigned.writeUInt16BE(unsigned.length - 20 + 24, 2);
  const mac = createHmac('sha1', key).update(unsigned).digest();
  return message(type, id, [...attributes, attribute(ATTR.integrity, mac)]);
}

function parse(packet: Buffer): { type: number; attributes: Map<number, Buffer> } {
  const attributes = new Map<number, Buffer>();
  let at = 20;
  while (at + 4 <= packet.length) {
    const type = packet.readUInt16BE(at);
    const length = packet.readUInt16BE(at + 2);
    attributes.set(type, packet.subarray(at + 4, at + 4 + length));
    at += 4 + length + ((4 - (length % 4)) % 4);
  }
  return { type: packet.readUInt16BE(0), attributes };
}

const errorCodeOf = (value: Buffer | undefined) => (value ? (value[2] ?? 0) * 100 + (value[3] ?? 0) : 0);

export type AllocateOutcome = { ok: true } | { ok: false; code: number };

/** Asks `host:port` for a UDP relay with `username`/`credential`: allocated, or the error code of the refusal. */
export async function allocate(
  host: string,
  port: number,
  username: string,
  credential: string,
): Promise<AllocateOutcome> {
  const socket = createSocket('udp4');
  const exchange = (packet: Buffer) =>
    new Promise<ReturnType<typeof parse>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer from ${host}:${port}`)), 5_000);
      socket.once('message', (reply) => {
        clearTimeout(timer);
        resolve(parse(reply));
      });
      socket.send(packet, port, host);
    });
  const udp = attribute(ATTR.requestedTransport, Buffer.from([17, 0, 0, 0]));
  try {
    const challenge = await exchange(message(ALLOCATE, randomBytes(12), [udp]));
    if (challenge.type !== ALLOCATE_ERROR) return { ok: false, code: -1 };
    const realm = challenge.attributes.get(ATTR.realm);
    const nonce = challenge.attributes.get(ATTR.nonce);
    if (!realm || !nonce) return { ok: false, code: errorCodeOf(challenge.attributes.get(ATTR.errorCode)) };
    const key = createHash('md5').update(`${username}:${realm.toString()}:${credential}`).digest();
    const answer = await exchange(
      withIntegrity(
        ALLOCATE,
        randomBytes(12),
        [
          udp,
          attribute(ATTR.username, Buffer.from(username)),
          attribute(ATTR.realm, realm),
          attribute(ATTR.nonce, nonce),
        ],
        key,
      ),
    );
    if (answer.type === ALLOCATE_SUCCESS && answer.attributes.has(ATTR.relayedAddress)) return { ok: true };
    return { ok: false, code: errorCodeOf(answer.attributes.get(ATTR.errorCode)) };
  } finally {
    socket.close();
  }
}
