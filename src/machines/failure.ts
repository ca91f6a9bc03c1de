/** Reading failures that actors report (the API's errors carry `status` and `detail`, docs/product/errors.md). */
export interface Failure {
  status: number;
  detail: string;
  body?: unknown;
}

export function failureOf(error: unknown): Failure {
  if (typeof error === 'object' && error !== null && 'detail' in error && typeof error.detail === 'string') {
    const status = 'status' in error && typeof error.status === 'number' ? error.status : 0;
    return { status, detail: error.detail, body: 'body' in error ? error.body : undefined };
  }
  return { status: 0, detail: error instanceof Error ? error.message : String(error) };
}

export const detailIs = (error: unknown, detail: string) => failureOf(error).detail === detail;
