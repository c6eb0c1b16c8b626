import { parseGuestList } from './parse';

// Parsing a large guest list takes long enough to freeze the page: it runs here, off the main thread.

export interface ParseRequest {
  bytes: ArrayBuffer;
  maxBytes: number;
  maxRows: number;
}

// The app's TypeScript has the DOM's types, not the worker's: the little used of the worker's scope, typed here.
const scope = self as unknown as {
  onmessage: ((message: MessageEvent<ParseRequest>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = (message) => {
  const { bytes, maxBytes, maxRows } = message.data;
  scope.postMessage(parseGuestList(new Uint8Array(bytes), { maxBytes, maxRows }));
};
