import type { OpenApiDocument } from '../../../services/api/apiDocs';

/** The apiDocs namespace (locales/<lng>/apiDocs.json): summaries by "METHOD /path", tag names by tag. */
export interface ApiDocsTexts {
  summaries: Record<string, string>;
  tags: Record<string, string>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/**
 * The OpenAPI document with its operations' summaries and tag names in the studio's language: the
 * server writes them in English; locales/<lng>/apiDocs.json holds them by "METHOD /path". An operation the
 * texts do not know keeps the server's summary. Descriptions and schemas stay as the server wrote them.
 */
export function localizeDocument(
  document: OpenApiDocument,
  texts: ApiDocsTexts | undefined,
): OpenApiDocument {
  if (!texts) return document;
  const paths: OpenApiDocument['paths'] = {};
  for (const [path, item] of Object.entries(document.paths)) {
    const localized: Record<string, unknown> = {};
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method) || typeof operation !== 'object' || operation === null) {
        localized[method] = operation;
        continue;
      }
      const op = operation as { summary?: string; tags?: string[] };
      localized[method] = {
        ...op,
        summary: texts.summaries[`${method.toUpperCase()} ${path}`] ?? op.summary,
        ...(op.tags ? { tags: op.tags.map((tag) => texts.tags[tag] ?? tag) } : {}),
      };
    }
    paths[path] = localized;
  }
  return { ...document, paths };
}
