import type { FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { z } from 'zod';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The parts of a `multipart/form-data` body (fields and files), for the OpenAPI document only: the
     * handler reads the parts itself, so nothing validates the body against it.
     */
    multipart?: z.ZodType;
  }
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/**
 * The OpenAPI transform: zod schemas become JSON Schema (fastify-type-provider-zod), and a route's
 * `multipart` schema becomes its request body (content type `multipart/form-data`, from `consumes`).
 */
export function openapiTransform(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const schema = input.schema as FastifySchema | undefined;
  if (!schema?.multipart) return jsonSchemaTransform(input);
  const { multipart, ...rest } = schema;
  return jsonSchemaTransform({
    ...input,
    schema: { ...rest, body: multipart, consumes: ['multipart/form-data'] },
  } as TransformInput);
}
