/**
 * fetch through XMLHttpRequest, for its upload progress events: ky's own `onUploadProgress` streams the body,
 * which Chromium allows only over HTTP/2, and the reference server speaks HTTP/1.1
 * (docs/decisions/0027-document-upload-and-review.md).
 * Hand it to ky as `fetch`, so errors still pass through ky's hooks (ApiError, 401).
 */
export function progressFetch(onProgress: (fraction: number) => void): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const body = await request.blob();
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      request.headers.forEach((value, key) => {
        xhr.setRequestHeader(key, value);
      });
      xhr.responseType = 'blob';
      xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
      xhr.onload = () => {
        const headers = new Headers();
        for (const line of xhr
          .getAllResponseHeaders()
          .trim()
          .split(/[\r\n]+/)) {
          const at = line.indexOf(':');
          if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
        }
        const status = xhr.status;
        resolve(new Response(status === 204 ? null : (xhr.response as Blob), { status, headers }));
      };
      xhr.onerror = () => reject(new TypeError('Failed to fetch'));
      xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
      request.signal.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(body);
    });
  };
}
