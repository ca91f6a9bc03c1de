/**
 * An OTLP/HTTP trace receiver in the test's own process, standing in for an OpenTelemetry Collector (none
 * installs here from the package registries): it accepts `POST /v1/traces` in protobuf, as the server's
 * exporter sends it, and decodes the few fields a test asserts on. The wire format is OTLP's
 * `ExportTraceServiceRequest` (opentelemetry-proto, trace/v1/trace.proto); unknown fields are skipped.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: { traceId: string; spanId: string }[];
  /** The instrumentation scope that made it (`@fastify/otel`, `idv-studio` …). */
  scope: string;
  /** The resource's attributes (`service.name` …). */
  resource: Record<string, string | number | boolean>;
}

export interface OtlpReceiver {
  /** The base address to give OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

/** One protobuf field: its number, and its value (a number for varints and fixed, bytes for the rest). */
interface Field {
  no: number;
  value: number | Uint8Array;
}

function readVarint(bytes: Uint8Array, at: { pos: number }): number {
  let result = 0;
  let factor = 1;
  for (;;) {
    const byte = bytes[at.pos++];
    if (byte === undefined) throw new Error('truncated varint');
    result += (byte & 0x7f) * factor;
    if (byte < 0x80) return result;
    factor *= 128;
  }
}

function fields(bytes: Uint8Array): Field[] {
  const found: Field[] = [];
  const at = { pos: 0 };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  while (at.pos < bytes.length) {
    const tag = readVarint(bytes, at);
    const no = Math.floor(tag / 8);
    switch (tag & 7) {
      case 0:
        found.push({ no, value: readVarint(bytes, at) });
        break;
      case 1:
        found.push({ no, value: view.getFloat64(at.pos, true) });
        at.pos += 8;
        break;
      case 2: {
        const length = readVarint(bytes, at);
        found.push({ no, value: bytes.subarray(at.pos, at.pos + length) });
        at.pos += length;
        break;
      }
      case 5:
        found.push({ no, value: view.getUint32(at.pos, true) });
        at.pos += 4;
        break;
      default:
        throw new Error(`unsupported wire type in field ${no}`);
    }
  }
  return found;
}

const bytesOf = (list: Field[], no: number): Uint8Array[] =>
  list.filter((f) => f.no === no && f.value instanceof Uint8Array).map((f) => f.value as Uint8Array);
const first = (list: Field[], no: number) => bytesOf(list, no)[0] ?? new Uint8Array();
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** AnyValue: string 1, bool 2, int 3, double 4 (arrays and maps are not needed here). */
function anyValue(bytes: Uint8Array): string | number | boolean {
  const [field] = fields(bytes);
  if (!field) return '';
  if (field.no === 1) return text(field.value as Uint8Array);
  if (field.no === 2) return field.value === 1;
  return field.value as number;
}

function attributes(list: Field[], no: number): Record<string, string | number | boolean> {
  const found: Record<string, string | number | boolean> = {};
  for (const kv of bytesOf(list, no)) {
    const pair = fields(kv);
    found[text(first(pair, 1))] = anyValue(first(pair, 2));
  }
  return found;
}

/** ExportTraceServiceRequest → ResourceSpans (1) → ScopeSpans (2) → Span (2). */
export function decodeTraces(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of bytesOf(fields(body), 1)) {
    const rs = fields(resourceSpans);
    const resource = attributes(fields(first(rs, 1)), 1);
    for (const scopeSpans of bytesOf(rs, 2)) {
      const ss = fields(scopeSpans);
      const scope = text(first(fields(first(ss, 1)), 1));
      for (const encoded of bytesOf(ss, 2)) {
        const span = fields(encoded);
        spans.push({
          traceId: hex(first(span, 1)),
          spanId: hex(first(span, 2)),
          parentSpanId: hex(first(span, 4)),
          name: text(first(span, 5)),
          kind: (span.find((f) => f.no === 6)?.value as number | undefined) ?? 0,
          attributes: attributes(span, 9),
          links: bytesOf(span, 13).map((link) => {
            const l = fields(link);
            return { traceId: hex(first(l, 1)), spanId: hex(first(l, 2)) };
          }),
          scope,
          resource,
        });
      }
    }
  }
  return spans;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const raw = Buffer.concat(chunks);
      const body = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      try {
        spans.push(...decodeTraces(body));
      } catch {
        response.writeHead(400).end();
        return;
      }
      // An empty ExportTraceServiceResponse: everything accepted.
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
