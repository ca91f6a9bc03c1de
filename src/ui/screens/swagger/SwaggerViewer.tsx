import 'swagger-ui-dist/swagger-ui.css';
import './swagger.css';
import { useEffect, useRef } from 'react';
import bundleUrl from 'swagger-ui-dist/swagger-ui-bundle.js?url';
import { type OpenApiDocument, signTryRequest, type TryRequest } from '../../../services/api/apiDocs';

/** The part of swagger-ui's standalone bundle the studio uses. */
type SwaggerUIBundle = (options: {
  domNode: HTMLElement;
  spec: object;
  docExpansion: 'list' | 'full' | 'none';
  defaultModelsExpandDepth: number;
  deepLinking: boolean;
  filter: boolean;
  requestInterceptor: (request: TryRequest) => TryRequest;
  plugins: (() => object)[];
}) => unknown;

declare global {
  interface Window {
    SwaggerUIBundle?: SwaggerUIBundle;
  }
}

let loading: Promise<void> | null = null;

/**
 * Loads swagger-ui's standalone bundle (its own copy of React inside) as a plain script, once. Kept out of
 * the module graph on purpose: shared with the studio's chunks, its modules would split them and add bytes
 * to the sign-in route.
 */
export function loadSwaggerBundle(): Promise<void> {
  if (window.SwaggerUIBundle) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = bundleUrl;
    script.async = true;
    script.onload = () =>
      window.SwaggerUIBundle ? resolve() : reject(new Error('swagger-ui did not start'));
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error(`Failed to load ${bundleUrl}`));
    };
    document.head.append(script);
  });
  return loading;
}

/**
 * For a document without `$ref` (the server's writes every schema out) a part of it is already resolved.
 * swagger-ui's OpenAPI 3.1 resolver refracts the whole document through ApiDOM for every part it is asked for
 * (on load, and on each operation opened): 2–4 s here before the first operation was drawn, 1.5 s to open one.
 */
const resolvedAsItIs = () => ({
  fn: {
    resolveSubtree: async (document: object, path: (string | number)[]) => ({
      spec: path.reduce<unknown>(
        (node, key) => (node as Record<string | number, unknown> | undefined)?.[key],
        document,
      ),
      errors: [],
    }),
  },
});

/** swagger-ui over the document; "try it" requests are signed with the active account's token. */
export function SwaggerViewer({ spec, serversLabel }: { spec: OpenApiDocument; serversLabel: string }) {
  const root = useRef<HTMLDivElement>(null);
  // The label follows the language without drawing swagger-ui again.
  const servers = useRef(serversLabel);
  servers.current = serversLabel;
  useEffect(() => {
    root.current?.querySelector('select#servers')?.setAttribute('aria-label', serversLabel);
  }, [serversLabel]);
  useEffect(() => {
    const node = root.current;
    if (!node || !window.SwaggerUIBundle) return;
    window.SwaggerUIBundle({
      domNode: node,
      spec,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      deepLinking: false,
      filter: true,
      requestInterceptor: signTryRequest,
      plugins: JSON.stringify(spec).includes('"$ref"') ? [] : [resolvedAsItIs],
    });
    // swagger-ui's server choice has no label of its own, and is drawn (again) after the bundle has returned.
    const label = () => {
      const select = node.querySelector('select#servers');
      if (select && select.getAttribute('aria-label') !== servers.current)
        select.setAttribute('aria-label', servers.current);
    };
    const observer = new MutationObserver(label);
    observer.observe(node, { childList: true, subtree: true });
    label();
    return () => {
      observer.disconnect();
      node.replaceChildren();
    };
  }, [spec]);
  return <div ref={root} className="studio-swagger" />;
}
