import type { ParseResult } from './parse';

/** Parses the file in a Web Worker (papaparse over the whole file would freeze the page). */
export function parseInWorker(file: File, limits: { maxBytes: number; maxRows: number }): Promise<ParseResult> {
  if (file.size > limits.maxBytes)
    return Promise.resolve({ ok: false, failure: { kind: 'too-large', bytes: file.size, maxBytes: limits.maxBytes } });
  return file.arrayBuffer().then(
    (bytes) =>
      new Promise<ParseResult>((resolve, reject) => {
        const worker = new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' });
        worker.onmessage = (message: MessageEvent<ParseResult>) => {
          resolve(message.data);
          worker.terminate();
        };
        worker.onerror = (error) => {
          reject(new Error(error.message));
          worker.terminate();
        };
        worker.postMessage({ bytes, ...limits }, [bytes]);
      }),
  );
}
