import { serializerCompiler } from 'fastify-type-provider-zod';

/**
 * The zod response serializer (every answer is checked against its route's schema, then written as JSON) that
 * writes a frozen answer it has written before for the same route from that first writing. A frozen answer is
 * one that is kept and handed to many callers as it is: the dashboard and the call report while their figures
 * hold (docs/decisions/0173-reports-kept-until-they-change.md). Checking their hundreds of figures again for each caller was most of such a request's
 * time.
 */
export const frozenAnswersSerializerCompiler: typeof serializerCompiler = (route) => {
  const serialize = serializerCompiler(route);
  const written = new WeakMap<object, string>();
  return (data) => {
    if (typeof data !== 'object' || data === null || !Object.isFrozen(data)) return serialize(data);
    const known = written.get(data);
    if (known !== undefined) return known;
    const text = serialize(data);
    written.set(data, text);
    return text;
  };
};
