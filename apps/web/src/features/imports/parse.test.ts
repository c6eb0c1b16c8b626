import { spawnSync } from 'node:child_process';
import { importCellTransportMax } from '@admit/shared/csv';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { decodeFile, errorReportCsv, guessMapping, parseGuestList, rowsForImport, type ParseResult } from './parse';

const limits = { maxBytes: 10 * 1024 * 1024, maxRows: 50_000 };
const utf8 = (text: string) => new TextEncoder().encode(text);
/** Windows-1252 bytes of Latin-1 text (the accents used here are the same code points in both). */
const cp1252 = (text: string) => Uint8Array.from([...text].map((character) => character.charCodeAt(0)));

function parsed(result: ParseResult) {
  if (!result.ok) throw new Error(`expected the file to parse, got ${JSON.stringify(result.failure)}`);
  return result.file;
}

describe('reading a guest list', () => {
  it('reads UTF-8 without a byte order mark, with commas', () => {
    const file = parsed(parseGuestList(utf8('name,email\nAnn,ann@example.test\n'), limits));
    expect(file).toMatchObject({ encoding: 'utf-8', delimiter: ',', columns: ['name', 'email'] });
    expect(file.rows).toEqual([{ line: 2, cells: ['Ann', 'ann@example.test'] }]);
  });

  it('drops a UTF-8 byte order mark, so the first header is not "\\uFEFFname"', () => {
    const file = parsed(parseGuestList(utf8('\uFEFFname;email\r\nZoë;zoe@example.test\r\n'), limits));
    expect(file).toMatchObject({ encoding: 'utf-8-bom', delimiter: ';', columns: ['name', 'email'] });
    expect(file.rows[0]!.cells).toEqual(['Zoë', 'zoe@example.test']);
  });

  it('reads Windows-1252 accents when the bytes are not UTF-8', () => {
    const file = parsed(
      parseGuestList(cp1252('name;email\r\nJosé Müller;jose@example.test\r\nFrançoise;f@example.test\r\n'), limits),
    );
    expect(file.encoding).toBe('windows-1252');
    expect(file.rows.map((row) => row.cells[0])).toEqual(['José Müller', 'Françoise']);
    // The euro sign is 0x80 in Windows-1252 (not in Latin-1): the right decoder is used.
    expect(decodeFile(Uint8Array.from([0x80])).text).toBe('€');
  });

  it('detects tabs as the delimiter', () => {
    const file = parsed(parseGuestList(utf8('name\temail\tquantity\nAnn\tann@example.test\t2\n'), limits));
    expect(file.delimiter).toBe('\t');
    expect(file.rows[0]!.cells).toEqual(['Ann', 'ann@example.test', '2']);
  });

  it('keeps quotes, delimiters and newlines inside quoted cells, with CRLF line ends', () => {
    const text =
      'name,email,note\r\n"Zoë ""Zed"" Müller, Jr.",zoe@example.test,"first line\r\nsecond line"\r\nBen,ben@example.test,\r\n';
    const file = parsed(parseGuestList(utf8(text), limits));
    expect(file.rows).toEqual([
      { line: 2, cells: ['Zoë "Zed" Müller, Jr.', 'zoe@example.test', 'first line\r\nsecond line'] },
      { line: 3, cells: ['Ben', 'ben@example.test', ''] },
    ]);
  });

  it('keeps formula-leading cells as text (they are neutralised only when written out)', () => {
    const file = parsed(parseGuestList(utf8('name,email\n=cmd|calc,x@example.test\n@SUM(1),y@example.test\n'), limits));
    expect(file.rows.map((row) => row.cells[0])).toEqual(['=cmd|calc', '@SUM(1)']);
  });

  it('reads a 1 MB single cell, and sends it clipped so the server reports it too long', () => {
    const big = 'x'.repeat(1024 * 1024);
    const file = parsed(parseGuestList(utf8(`name,email\n${big},big@example.test\n`), limits));
    expect(file.rows[0]!.cells[0]).toHaveLength(big.length);
    const [row] = rowsForImport(file.rows, { ...guessMapping(file.columns) });
    expect(row!.name).toHaveLength(importCellTransportMax);
  });

  it('says an empty file is empty, and a header alone has no guests', () => {
    expect(parseGuestList(utf8(''), limits)).toEqual({ ok: false, failure: { kind: 'empty' } });
    expect(parseGuestList(utf8('\r\n\r\n'), limits)).toEqual({ ok: false, failure: { kind: 'empty' } });
    expect(parseGuestList(utf8('name,email\r\n'), limits)).toEqual({ ok: false, failure: { kind: 'header-only' } });
  });

  it('tells duplicate headers apart and lists them', () => {
    const file = parsed(parseGuestList(utf8('email,name,Email\na@example.test,Ann,b@example.test\n'), limits));
    expect(file.columns).toEqual(['email (1)', 'name', 'Email (3)']);
    expect(file.duplicateColumns).toEqual(['email', 'Email']);
    expect(guessMapping(file.columns)).toMatchObject({ email: 0, name: 1 });
  });

  it('names the line of a quote that is never closed', () => {
    const text = 'name,email\nAnn,ann@example.test\nBen,ben@example.test\n"Cat,cat@example.test\nDan,dan@example.test\n';
    expect(parseGuestList(utf8(text), limits)).toEqual({ ok: false, failure: { kind: 'unclosed-quote', line: 4 } });
  });

  it('refuses a binary file, naming the line', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    expect(parseGuestList(png, limits)).toMatchObject({ ok: false, failure: { kind: 'binary', line: 2 } });
  });

  it('refuses files over the size or row limit with the numbers', () => {
    const text = utf8(`email\n${Array.from({ length: 11 }, (_, index) => `g${index}@example.test`).join('\n')}\n`);
    expect(parseGuestList(text, { maxBytes: 10, maxRows: 100 })).toEqual({
      ok: false,
      failure: { kind: 'too-large', bytes: text.length, maxBytes: 10 },
    });
    expect(parseGuestList(text, { maxBytes: 10_000, maxRows: 10 })).toEqual({
      ok: false,
      failure: { kind: 'too-many-rows', rows: 11, maxRows: 10 },
    });
  });
});

describe('mapping columns', () => {
  it('guesses English, German and export headers', () => {
    expect(guessMapping(['Name', 'E-Mail', 'Kategorie', 'Anzahl', 'Bemerkung'])).toEqual({
      name: 0,
      email: 1,
      ticketType: 2,
      quantity: 3,
      note: 4,
      guestId: null,
    });
    expect(guessMapping(['ticket_id', 'ticket_type', 'holder_name', 'holder_email'])).toMatchObject({
      guestId: 0,
      ticketType: 1,
      name: 2,
      email: 3,
    });
  });

  it('sends only the mapped cells, empty where a field is not mapped', () => {
    const rows = rowsForImport([{ line: 2, cells: ['Ann', 'ann@example.test', 'VIP'] }], {
      name: 0,
      email: 1,
      ticketType: null,
      quantity: null,
      note: null,
      guestId: null,
    });
    expect(rows).toEqual([
      { line: 2, name: 'Ann', email: 'ann@example.test', ticketType: '', quantity: '', note: '', guestId: '' },
    ]);
  });
});

describe('the error report', () => {
  it('is CSV with a byte order mark, the problems first and the row as it was, neutralised', () => {
    const csv = errorReportCsv(
      ['name', 'email'],
      [{ line: 3, status: 'Error', problems: 'The email address is missing.', cells: ['=HACK()', ''] }],
      { line: 'Line', status: 'Status', problems: 'Problems' },
    );
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const records = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data;
    expect(records).toEqual([
      ['Line', 'Status', 'Problems', 'name', 'email'],
      ['3', 'Error', 'The email address is missing.', "'=HACK()", ''],
    ]);
  });

  it('reads back as one row per guest in the import and in Python, when names and notes hold line breaks and formulas', () => {
    const cells = [
      ['Ann\n=1+1', 'ann@example.test', 'note\r@SUM(1)\r\n-2'],
      ['Ben', 'ben@example.test', '<b>x</b>\n=HYPERLINK("http://evil.test")\n\t+1'],
    ];
    const csv = errorReportCsv(
      ['name', 'email', 'note'],
      cells.map((row, index) => ({ line: index + 2, status: 'Error', problems: 'Bad.', cells: row })),
      { line: 'Line', status: 'Status', problems: 'Problems' },
    );
    const ours = parsed(parseGuestList(utf8(csv), limits));
    const python = spawnSync(
      'python3',
      [
        '-c',
        "import csv,io,json,sys; json.dump(list(csv.reader(io.StringIO(sys.stdin.buffer.read().decode('utf-8-sig'), newline=''))), sys.stdout)",
      ],
      { input: csv, encoding: 'utf8' },
    );
    expect(python.status, python.stderr).toBe(0);
    const [, ...theirs] = JSON.parse(python.stdout) as string[][];
    expect(ours.rows.map((row) => row.cells)).toEqual(theirs);
    expect(theirs).toHaveLength(2);
    const lines = theirs.flat().flatMap((cell) => cell.split(/\r\n|\r|\n/));
    expect(lines.filter((line) => /^[=+\-@\t]/.test(line))).toEqual([]);
    expect(theirs[0]!.slice(3)).toEqual(["Ann\n'=1+1", 'ann@example.test', "note\r'@SUM(1)\r\n'-2"]);
  });
});
