import { CONSOLE_HEADER, failureOf } from './client.ts';

/**
 * A multipart upload that reports its progress (fetch cannot: it has no upload progress events),
 * resolving with the API's JSON answer or rejecting with its ApiFailure.
 */
export function uploadWithProgress<T>(path: string, form: FormData, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    for (const [name, value] of Object.entries(CONSOLE_HEADER)) request.setRequestHeader(name, value);
    request.responseType = 'text';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = async () => {
      const response = new Response(request.responseText, { status: request.status, statusText: request.statusText, headers: { 'content-type': request.getResponseHeader('content-type') ?? 'application/json' } });
      if (response.ok) resolve((await response.json()) as T);
      else reject(await failureOf(response));
    };
    request.onerror = () => reject(new Error('The upload could not reach the server.'));
    signal?.addEventListener('abort', () => request.abort());
    request.send(form);
  });
}
