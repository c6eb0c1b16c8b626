import { z } from 'zod';
import { defineCallableContract } from './callable';
import { locales, type Locale as LocaleList } from './locales';

// CSV in and out (docs/decisions/0023): the export's URL shape and the guest-list
// import's callables, plus the pure rules both sides apply to a guest list.

const Id = z.string().min(1).max(64);

// ---------------------------------------------------------------------------------------------
// Exports: `GET /files/events/:eventId/exports/<kind>.csv?excel=1&locale=de`

export const exportKinds = ['attendees', 'orders', 'check-ins', 'codes', 'waitlist'] as const;
export const ExportKind = z.enum(exportKinds);
export type ExportKind = z.infer<typeof ExportKind>;

export const ExportQuery = z.object({
  /** "1": a byte order mark, and `;` between cells where the locale writes decimals with a comma. */
  excel: z.enum(['0', '1']).optional(),
  /** The language of the formatted money column (default: the app's language cookie). */
  locale: z.enum(locales).optional(),
});

/** The path of an event's export, as the browser asks for it. */
export function exportPath(eventId: string, kind: ExportKind, options: { excel: boolean; locale: LocaleList }): string {
  const query = new URLSearchParams({ excel: options.excel ? '1' : '0', locale: options.locale });
  return `/files/events/${encodeURIComponent(eventId)}/exports/${kind}.csv?${query.toString()}`;
}

/** The response header that tells how many data rows an export will have (for a progress bar). */
export const exportRowCountHeader = 'x-row-count';

const formulaStart = /^[=+\-@\t\r\n]/;
const lineBreak = /(\r\n|\r|\n)/;

/** A line that starts as a formula, with an apostrophe before it. */
function neutralizeLine(line: string): string {
  const first = line.codePointAt(0);
  if (first === undefined) return line;
  const start = first < 0x80 ? line : String.fromCodePoint(first).normalize('NFKC');
  return formulaStart.test(start) ? `'${line}` : line;
}

/**
 * A cell that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, carriage return or
 * line feed at its start) gets a leading apostrophe, which spreadsheets show as text (OWASP's
 * advice). The first character is compared in its compatibility form (NFKC): a spreadsheet may
 * take a full-width `＝` (or `＋`, `－`, `＠`, or their small forms) for the ASCII one, as East
 * Asian keyboards type them.
 *
 * Every line of a cell is treated so, not only its first: the writer quotes a cell with a line
 * break, but a reader that splits records on a bare LF or CR (a text editor pasted into a sheet,
 * a hand-made parser) would start a row with the second line.
 */
export function neutralizeFormula(value: string): string {
  if (!lineBreak.test(value)) return neutralizeLine(value);
  const parts = value.split(lineBreak);
  // Odd parts are the line breaks themselves, which split keeps because of the capture group.
  const lines = parts.map((part, index) => (index % 2 === 1 ? part : neutralizeLine(part))).join('');
  return formulaStart.test(value) && !lines.startsWith("'") ? `'${lines}` : lines;
}

/** Whether the locale writes 1.5 as "1,5": Excel there expects `;` between cells. */
export function usesDecimalComma(locale: string): boolean {
  const decimal = new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal');
  return decimal?.value === ',';
}

// ---------------------------------------------------------------------------------------------
// Guest-list import

/** The columns of a guest list that can be mapped, in the order the mapping screen shows them. */
export const importFields = ['name', 'email', 'ticketType', 'quantity', 'note', 'guestId'] as const;
export type ImportField = (typeof importFields)[number];

/** The longest cell the browser sends; longer ones are clipped to this and then reported as too long. */
export const importCellTransportMax = 2_000;
/** Per-field limits of a row (a longer value is a row error, not a failed call). */
export const importFieldMax: Record<ImportField, number> = {
  name: 200,
  email: 254,
  ticketType: 200,
  quantity: 10,
  note: 1_000,
  guestId: 200,
};
/** How many tickets one guest-list row may ask for. */
export const importMaxQuantity = 1_000;
/** Rows per validate or apply call: each call stays well under the 1 MB body limit. */
export const importValidateChunk = 1_000;
export const importApplyChunk = 1_000;

const Cell = z.string().max(importCellTransportMax);
export const ImportRowInput = z.strictObject({
  /** The row's line in the file (1 is the header), for the report. */
  line: z.int().min(1),
  name: Cell.default(''),
  email: Cell.default(''),
  ticketType: Cell.default(''),
  /** As written in the file; empty means 1. */
  quantity: Cell.default(''),
  note: Cell.default(''),
  /** An id from the file (e.g. an export's ticket_id): when present, the row's key. */
  guestId: Cell.default(''),
});
export type ImportRowInput = z.input<typeof ImportRowInput>;

export const ImportRowErrorCode = z.enum([
  'email-missing',
  'email-invalid',
  'ticket-type-unknown',
  'quantity-invalid',
  'capacity-exceeded',
  'duplicate-row',
  'too-long',
]);
export type ImportRowErrorCode = z.infer<typeof ImportRowErrorCode>;
export const ImportRowError = z.object({
  code: ImportRowErrorCode,
  field: z.enum(importFields).optional(),
  /** For a duplicate: the line it repeats. */
  line: z.number().optional(),
});
export type ImportRowError = z.infer<typeof ImportRowError>;

/** ok: will be imported; imported: was imported before (skipped, not an error); error: see errors. */
export const ImportRowStatus = z.enum(['ok', 'imported', 'error']);
export const ImportRowReport = z.object({
  line: z.number(),
  status: ImportRowStatus,
  errors: z.array(ImportRowError),
  /** The row's idempotency key (a hash); null when the row has no email, name or id to key it by. */
  key: z.string().nullable(),
  ticketTypeId: z.string().nullable(),
  quantity: z.number(),
});
export type ImportRowReport = z.infer<typeof ImportRowReport>;

export const ImportCapacity = z.object({
  /** Places left for the whole event. */
  event: z.number(),
  ticketTypes: z.array(z.object({ id: z.string(), name: z.string(), remaining: z.number() })),
});
export type ImportCapacity = z.infer<typeof ImportCapacity>;

export const PrepareImportInput = z.strictObject({ eventId: Id });
export const PrepareImportOutput = z.object({
  maxBytes: z.number(),
  maxRows: z.number(),
  currency: z.string(),
  ticketTypes: z.array(z.object({ id: z.string(), name: z.string() })),
});
export const prepareImport = defineCallableContract('imports.prepare', PrepareImportInput, PrepareImportOutput);

export const ValidateImportInput = z.strictObject({
  eventId: Id,
  rows: z.array(ImportRowInput).min(1).max(importValidateChunk),
  /** The ticket type of rows whose ticket type cell is empty (or of all rows when that column is not mapped). */
  defaultTicketTypeId: Id.optional(),
});
export type ValidateImportInput = z.input<typeof ValidateImportInput>;
export const ValidateImportOutput = z.object({ rows: z.array(ImportRowReport), capacity: ImportCapacity });
export type ValidateImportOutput = z.infer<typeof ValidateImportOutput>;
export const validateImport = defineCallableContract('imports.validate', ValidateImportInput, ValidateImportOutput);

export const ApplyImportInput = z.strictObject({
  eventId: Id,
  rows: z.array(ImportRowInput).min(1).max(importApplyChunk),
  defaultTicketTypeId: Id.optional(),
  /** Email each new guest their tickets. */
  sendEmails: z.boolean().default(false),
});
export type ApplyImportInput = z.input<typeof ApplyImportInput>;
export const ApplyImportOutput = z.object({
  rows: z.array(
    z.object({
      line: z.number(),
      /** created: a new complimentary order; skipped: imported before; invalid: not written (see errors). */
      status: z.enum(['created', 'skipped', 'invalid']),
      orderId: z.string().nullable(),
      errors: z.array(ImportRowError),
    }),
  ),
  created: z.number(),
  tickets: z.number(),
  skipped: z.number(),
  invalid: z.number(),
});
export type ApplyImportOutput = z.infer<typeof ApplyImportOutput>;
export const applyImport = defineCallableContract('imports.apply', ApplyImportInput, ApplyImportOutput);

// ---------------------------------------------------------------------------------------------
// The rules of a guest-list row, the same in the browser and on the server.

// An address a mail server would take: one @, no spaces, a dot in the domain. Deliberately loose.
const emailPattern = /^[^\s@<>(),;:"[\]]+@[^\s@<>(),;:"[\]]+\.[^\s@<>(),;:"[\]]+$/;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();
export const normalizeName = (name: string) => name.trim().replace(/\s+/g, ' ');

/** What one row says, checked on its own (no other rows, no capacity). */
export interface CheckedImportRow {
  line: number;
  errors: ImportRowError[];
  name: string;
  email: string;
  ticketTypeId: string | null;
  quantity: number;
  note: string;
  guestId: string;
}

/** Checks a row against the event's ticket types (matched by id or by name, case-insensitively). */
export function checkImportRow(
  row: z.output<typeof ImportRowInput>,
  ticketTypes: readonly { id: string; name: string }[],
  defaultTicketTypeId?: string,
): CheckedImportRow {
  const errors: ImportRowError[] = [];
  for (const field of importFields) {
    if (row[field].length > importFieldMax[field]) errors.push({ code: 'too-long', field });
  }
  const email = normalizeEmail(row.email);
  const name = normalizeName(row.name);
  // A guest without an address (someone's plus-one) is a name alone: the ticket is issued to the
  // name, and nobody is emailed. A row with neither is nobody.
  if (email === '') {
    if (name === '') errors.push({ code: 'email-missing', field: 'email' });
  } else if (!emailPattern.test(email) && email.length <= importFieldMax.email)
    errors.push({ code: 'email-invalid', field: 'email' });

  const typeCell = normalizeName(row.ticketType).toLowerCase();
  // An empty cell means the chosen default, or the event's only ticket type when it has one.
  const type =
    typeCell === ''
      ? (ticketTypes.find((candidate) => candidate.id === defaultTicketTypeId) ??
        (ticketTypes.length === 1 ? ticketTypes[0] : undefined))
      : ticketTypes.find((candidate) => candidate.id === row.ticketType.trim() || candidate.name.toLowerCase() === typeCell);
  if (!type) errors.push({ code: 'ticket-type-unknown', field: 'ticketType' });

  const quantityCell = row.quantity.trim();
  const quantity = quantityCell === '' ? 1 : /^\d+$/.test(quantityCell) ? Number(quantityCell) : NaN;
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > importMaxQuantity)
    errors.push({ code: 'quantity-invalid', field: 'quantity' });

  return {
    line: row.line,
    errors,
    name,
    email,
    ticketTypeId: type?.id ?? null,
    quantity: Number.isInteger(quantity) && quantity > 0 ? quantity : 0,
    note: row.note.trim(),
    guestId: row.guestId.trim(),
  };
}

/**
 * What identifies a row across imports, before hashing: the file's own id when it has one,
 * otherwise the guest's email and ticket type (one complimentary order per guest and type), or,
 * for a guest without an email, their name (in lower case) and ticket type: two plus-ones of the
 * same name need ids of their own, or one row with a quantity of two.
 */
export function importRowIdentity(row: Pick<CheckedImportRow, 'guestId' | 'email' | 'name' | 'ticketTypeId'>): string | null {
  if (row.guestId !== '') return `id:${row.guestId}`;
  if (row.ticketTypeId === null) return null;
  if (row.email !== '') return `email:${row.email}|type:${row.ticketTypeId}`;
  if (row.name !== '') return `name:${row.name.toLowerCase()}|type:${row.ticketTypeId}`;
  return null;
}

/**
 * Adds the errors that depend on the whole list: a row whose key an earlier row has is a
 * duplicate; rows still to import that do not fit in what is left (in file order) exceed the
 * capacity. Row-level errors are kept; these two are recomputed, so the browser can run it again
 * over the reports of all chunks together.
 */
export function completeImportReport(rows: readonly ImportRowReport[], capacity: ImportCapacity): ImportRowReport[] {
  const firstLineOfKey = new Map<string, number>();
  let eventLeft = capacity.event;
  const typeLeft = new Map(capacity.ticketTypes.map((type) => [type.id, type.remaining]));
  return rows.map((row) => {
    const errors = row.errors.filter((error) => error.code !== 'duplicate-row' && error.code !== 'capacity-exceeded');
    if (row.key !== null) {
      const first = firstLineOfKey.get(row.key);
      if (first !== undefined) errors.push({ code: 'duplicate-row', line: first });
      else firstLineOfKey.set(row.key, row.line);
    }
    if (row.status === 'imported') return { ...row, errors: [] };
    if (errors.length === 0 && row.ticketTypeId !== null) {
      const left = typeLeft.get(row.ticketTypeId) ?? 0;
      if (row.quantity > left || row.quantity > eventLeft) errors.push({ code: 'capacity-exceeded', field: 'quantity' });
      else {
        typeLeft.set(row.ticketTypeId, left - row.quantity);
        eventLeft -= row.quantity;
      }
    }
    return { ...row, status: errors.length > 0 ? 'error' : 'ok', errors };
  });
}

/** Counts of a report, for its summary line. */
export function summarizeImportReport(rows: readonly ImportRowReport[]) {
  let ok = 0;
  let imported = 0;
  let errors = 0;
  let tickets = 0;
  for (const row of rows) {
    if (row.status === 'ok') {
      ok += 1;
      tickets += row.quantity;
    } else if (row.status === 'imported') imported += 1;
    else errors += 1;
  }
  return { ok, imported, errors, tickets };
}
