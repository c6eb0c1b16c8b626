/**
 * A Content-Disposition header for a file name. A name of plain printable ASCII goes in
 * `filename` as it is; any other gets an ASCII stand-in there and its exact form in `filename*`
 * (RFC 6266), so no quote, newline or accent can break the header.
 */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (fallback === filename) return `${kind}; filename="${filename}"`;
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
