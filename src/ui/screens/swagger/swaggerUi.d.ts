/** swagger-ui-react ships no types: the props this studio uses. */
declare module 'swagger-ui-react' {
  import type { ComponentType } from 'react';

  export interface SwaggerUIProps {
    spec?: object;
    url?: string;
    docExpansion?: 'list' | 'full' | 'none';
    defaultModelsExpandDepth?: number;
    deepLinking?: boolean;
    displayOperationId?: boolean;
    filter?: boolean | string;
    tryItOutEnabled?: boolean;
    persistAuthorization?: boolean;
    supportedSubmitMethods?: string[];
    requestInterceptor?: (request: { url: string; headers: Record<string, string> }) => unknown;
    onComplete?: (system: unknown) => void;
  }

  const SwaggerUI: ComponentType<SwaggerUIProps>;
  export default SwaggerUI;
}
