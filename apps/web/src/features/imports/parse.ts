import {
  importCellTransportMax,
  importFields,
  neutralizeFormula,
  type ImportField,
  type ImportRowInput,
} from '@admit/shared/csv';
import Papa from 'papaparse';

// Reading a guest list: the bytes of a file to rows of cells, with the encoding and the
// delimiter found out, and every way a file can be wrong named with its line. Pure, so that the
// worker (parse.worker.ts) runs it off the main thread and the unit tests run it in Node.

export type FileEncoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** Why a file cannot be read at all: nothing of it is imported. */
export type ParseFailure =
  | { kind: 'empty' }
  | { kind: 'header-only' }
  | { kind: 'binary'; line: number }
  | { kind: 'unclosed-quote'; line: number }
  | { kind: 'malformed-quote'; line: number }
  | { kind: 'too-many-rows'; rows: number; maxRows: number }
  | { kind: 'too-large'; bytes: number; maxBytes: number };

export interface ParsedFile {
  encoding: FileEncoding;
  delimiter: string;
  /** The header row's labels; a duplicate label gets its column number added, so each can be told apart. */
  columns: string[];
  /** Labels that appear more than once in the header. */
  duplicateColumns: string[];
  /** The data rows, each with its row number in the file (the header is row 1). */
  rows: { line: number; cells: string[] }[];
}

export type ParseResult = { ok: true; file: ParsedFile } | { ok: false; failure: ParseFailure };

/** Text of a file: a byte order mark decides; else UTF-8 when the bytes are valid UTF-8, else Windows-1252. */
export function decodeFile(bytes: Uint8Array): { text: string; encoding: FileEncoding } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8-bom' };
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    // Excel on Windows saves "CSV" in the system's code page: for Western Europe, Windows-1252.
    return { text: decodeWindows1252(bytes), encoding: 'windows-1252' };
  }
}

// 0x80–0x9F of Windows-1252 (€, ‚, „, …, ‘, ’, “, ”, –, —, ™, Š, Ž, Ÿ …); undefined bytes stay as they are.
const windows1252High =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * Windows-1252 by its table. Browsers' TextDecoder('windows-1252') does the same, but Node's
 * decodes it as Latin-1 (0x80 stays U+0080), and the unit tests run in Node.
 */
function decodeWindows1252(bytes: Uint8Array): string {
  let text = '';
  for (let start = 0; start < bytes.length; start += 8_192) {
    const slice = bytes.subarray(start, start + 8_192);
    text += String.fromCharCode(
      ...Array.from(slice, (byte) => (byte >= 0x80 && byte <= 0x9f ? windows1252High.charCodeAt(byte - 0x80) : byte)),
    );
  }
  return text;
}

const lineAt = (text: string, index: number) => {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
};

/** A NUL or other control character that no text file has: the file is not a CSV (an image, a spreadsheet). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const binaryCharacter = /[\u0000-\u0008\u000e-\u001a\u001c-\u001f]/;

/** Parses the bytes of a guest list; `maxRows` counts data rows. */
export function parseGuestList(bytes: Uint8Array, limits: { maxBytes: number; maxRows: number }): ParseResult {
  if (bytes.length > limits.maxBytes)
    return { ok: false, failure: { kind: 'too-large', bytes: bytes.length, maxBytes: limits.maxBytes } };
  const { text, encoding } = decodeFile(bytes);
  const binary = binaryCharacter.exec(text);
  if (binary) return { ok: false, failure: { kind: 'binary', line: lineAt(text, binary.index) } };
  if (text.trim() === '') return { ok: false, failure: { kind: 'empty' } };

  const parsed = Papa.parse<string[]>(text, {
    header: false,
    skipEmptyLines: 'greedy',
    delimitersToGuess: [',', ';', '\t'],
  });
  for (const error of parsed.errors) {
    if (error.type !== 'Quotes') continue;
    const line = error.index !== undefined ? lineAt(text, error.index) : (error.row ?? 0) + 1;
    return { ok: false, failure: { kind: error.code === 'MissingQuotes' ? 'unclosed-quote' : 'malformed-quote', line } };
  }
  const [header, ...data] = parsed.data;
  if (!header) return { ok: false, failure: { kind: 'empty' } };
  if (data.length === 0) return { ok: false, failure: { kind: 'header-only' } };
  if (data.length > limits.maxRows)
    return { ok: false, failure: { kind: 'too-many-rows', rows: data.length, maxRows: limits.maxRows } };

  const width = Math.max(header.length, ...data.slice(0, 1_000).map((row) => row.length));
  const labels = Array.from({ length: width }, (_, index) => (header[index] ?? '').trim());
  const counts = new Map<string, number>();
  for (const label of labels) counts.set(label.toLowerCase(), (counts.get(label.toLowerCase()) ?? 0) + 1);
  const duplicateColumns = [...new Set(labels.filter((label) => label !== '' && counts.get(label.toLowerCase())! > 1))];
  const columns = labels.map((label, index) =>
    label === '' || counts.get(label.toLowerCase())! > 1 ? `${label || '—'} (${index + 1})` : label,
  );
  return {
    ok: true,
    file: {
      encoding,
      delimiter: parsed.meta.delimiter,
      columns,
      duplicateColumns,
      rows: data.map((cells, index) => ({ line: index + 2, cells })),
    },
  };
}

/** Which column (by index) holds each field; null: not in the file. */
export type ColumnMapping = Record<ImportField, number | null>;

const headerNames: Record<ImportField, string[]> = {
  name: ['name', 'full name', 'holder name', 'holder_name', 'guest', 'guest name', 'attendee', 'buyer_name', 'nom', 'nombre'],
  email: ['email', 'e-mail', 'mail', 'email address', 'holder_email', 'holder email', 'buyer_email', 'e-mail-adresse', 'correo'],
  ticketType: ['ticket type', 'ticket_type', 'type', 'ticket', 'category', 'kategorie', 'ticketart', 'ticket-typ', 'tarif'],
  quantity: ['quantity', 'qty', 'tickets', 'count', 'number', 'anzahl', 'menge', 'cantidad', 'quantité'],
  note: ['note', 'notes', 'comment', 'comments', 'remark', 'notiz', 'bemerkung', 'kommentar'],
  guestId: ['id', 'ticket_id', 'ticket id', 'guest id', 'guest_id', 'reference', 'external id'],
};

/** The likely column of each field, from the header labels; each column is used at most once. */
export function guessMapping(columns: readonly string[]): ColumnMapping {
  const mapping = Object.fromEntries(importFields.map((field) => [field, null])) as ColumnMapping;
  const taken = new Set<number>();
  const normalized = columns.map((column) =>
    column
      .replace(/\s\(\d+\)$/, '')
      .trim()
      .toLowerCase(),
  );
  for (const field of importFields) {
    const index = normalized.findIndex((column, at) => !taken.has(at) && headerNames[field].includes(column));
    if (index !== -1) {
      mapping[field] = index;
      taken.add(index);
    }
  }
  return mapping;
}

/** What the server is sent for each row: the mapped cells, clipped (a longer cell is still reported too long). */
export function rowsForImport(rows: readonly { line: number; cells: string[] }[], mapping: ColumnMapping): ImportRowInput[] {
  return rows.map(({ line, cells }) => {
    const row: Record<string, string | number> = { line };
    for (const field of importFields) {
      const column = mapping[field];
      const value = column === null ? '' : (cells[column] ?? '');
      row[field] = value.slice(0, importCellTransportMax);
    }
    return row as unknown as ImportRowInput;
  });
}

/**
 * The downloadable report: the file's own columns as they were, then each row's line, status
 * and problems. Written as CSV with a byte order mark (spreadsheets then read it as UTF-8), and
 * neutralised like every export.
 */
export function errorReportCsv(
  columns: readonly string[],
  rows: readonly { line: number; cells: string[]; status: string; problems: string }[],
  labels: { line: string; status: string; problems: string },
): string {
  const records = rows.map((row) => [String(row.line), row.status, row.problems, ...row.cells].map(neutralizeFormula));
  const body = Papa.unparse(
    { fields: [labels.line, labels.status, labels.problems, ...columns], data: records },
    { newline: '\r\n' },
  );
  return `\uFEFF${body}\r\n`;
}
