import type { ImportRowReport } from '@admit/shared/csv';
import { describe, expect, it } from 'vitest';
import { firstImportStep, nextImportStep, type ImportEvent, type ImportStep } from './import-wizard';
import type { ParsedFile } from './parse';

const file: ParsedFile = {
  encoding: 'utf-8',
  delimiter: ',',
  columns: ['name', 'email'],
  duplicateColumns: [],
  rows: [
    { line: 2, cells: ['Ann', 'ann@example.test'] },
    { line: 3, cells: ['Ben', 'ben@example.test'] },
    { line: 4, cells: ['Cy', 'not an email'] },
  ],
};

const row = (line: number, status: ImportRowReport['status']): ImportRowReport => ({
  line,
  status,
  errors: status === 'error' ? [{ code: 'email-invalid' }] : [],
  key: `key-${line}`,
  ticketTypeId: 't1',
  quantity: 1,
});
const report = [row(2, 'ok'), row(3, 'imported'), row(4, 'error')];

const after = (events: ImportEvent[], from: ImportStep = firstImportStep) => events.reduce(nextImportStep, from);
const upToReport: ImportEvent[] = [
  { type: 'file-chosen' },
  { type: 'file-read', file, fileName: 'guests.csv' },
  { type: 'validation-started' },
  { type: 'validation-finished', report },
];

describe('the guest-list import wizard', () => {
  it('goes from the file to its columns, to the report, to the import, to the counts of what was done', () => {
    expect(after([{ type: 'file-chosen' }])).toEqual({ kind: 'parsing' });
    expect(after(upToReport.slice(0, 2))).toEqual({ kind: 'map', file, fileName: 'guests.csv' });
    expect(after([...upToReport.slice(0, 3), { type: 'rows-validated', done: 2 }])).toEqual({
      kind: 'validating',
      file,
      fileName: 'guests.csv',
      done: 2,
    });
    expect(after(upToReport)).toEqual({ kind: 'report', file, fileName: 'guests.csv', report });
    expect(
      after([
        ...upToReport,
        { type: 'import-started', total: 1 },
        { type: 'rows-imported', done: 1, created: 1, tickets: 1, skipped: 0 },
        { type: 'import-finished' },
      ]),
    ).toEqual({ kind: 'done', created: 1, tickets: 1, skipped: 1 });
  });

  it('counts the rows imported before as skipped, and adds up what each chunk of the import answers', () => {
    const applying = after([
      ...upToReport,
      { type: 'import-started', total: 2_000 },
      { type: 'rows-imported', done: 1_000, created: 990, tickets: 1_500, skipped: 10 },
      { type: 'rows-imported', done: 2_000, created: 1_000, tickets: 1_000, skipped: 0 },
    ]);
    expect(applying).toMatchObject({
      kind: 'applying',
      done: 2_000,
      total: 2_000,
      counts: { created: 1_990, tickets: 2_500, skipped: 11 },
    });
  });

  it('keeps the counts of the rows imported before an import stopped, with the reason it stopped', () => {
    const error = new Error('offline');
    const stopped = after([
      ...upToReport,
      { type: 'import-started', total: 2_000 },
      { type: 'rows-imported', done: 1_000, created: 1_000, tickets: 1_000, skipped: 0 },
      { type: 'import-failed', error },
    ]);
    expect(stopped).toEqual({ kind: 'done', created: 1_000, tickets: 1_000, skipped: 1, error });
  });

  it('goes back to the columns of the same file when the rows cannot be checked', () => {
    const failed = after([...upToReport.slice(0, 3), { type: 'rows-validated', done: 1 }, { type: 'validation-failed' }]);
    expect(failed).toEqual({ kind: 'map', file, fileName: 'guests.csv' });
  });

  it('asks for a file again, saying why, when the file cannot be imported', () => {
    const failure = { kind: 'unclosed-quote', line: 3 } as const;
    expect(after([{ type: 'file-chosen' }, { type: 'file-refused', failure }])).toEqual({ kind: 'pick', failure });
    expect(after([{ type: 'file-chosen' }, { type: 'file-refused' }])).toEqual({ kind: 'pick' });
  });

  it('starts again from any step when another file is asked for', () => {
    expect(after([...upToReport, { type: 'restarted' }])).toEqual({ kind: 'pick' });
    expect(after([{ type: 'restarted' }], { kind: 'done', created: 1, tickets: 1, skipped: 0 })).toEqual({ kind: 'pick' });
  });

  it('ignores an event that does not belong to the current step', () => {
    const atReport = after(upToReport);
    expect(nextImportStep(atReport, { type: 'rows-validated', done: 3 })).toBe(atReport);
    expect(nextImportStep(atReport, { type: 'import-finished' })).toBe(atReport);
    expect(nextImportStep(firstImportStep, { type: 'file-read', file, fileName: 'guests.csv' })).toBe(firstImportStep);
  });
});
