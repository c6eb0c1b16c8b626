import type { ImportRowReport } from '@admit/shared/csv';
import type { ParsedFile, ParseFailure } from './parse';

// The guest-list import's steps and how one leads to the next. Pure, so that the order of the
// steps and the counts of the last one are specified without React (import-wizard.test.ts).

export type ImportStep =
  | { kind: 'pick'; failure?: ParseFailure }
  | { kind: 'parsing' }
  | { kind: 'map'; file: ParsedFile; fileName: string }
  | { kind: 'validating'; file: ParsedFile; fileName: string; done: number }
  | { kind: 'report'; file: ParsedFile; fileName: string; report: ImportRowReport[] }
  | {
      kind: 'applying';
      file: ParsedFile;
      fileName: string;
      report: ImportRowReport[];
      done: number;
      total: number;
      /** What the import has done so far, shown when it is done or stops. */
      counts: ImportCounts;
    }
  | ({ kind: 'done'; error?: unknown } & ImportCounts);

export interface ImportCounts {
  created: number;
  tickets: number;
  skipped: number;
}

export type ImportEvent =
  | { type: 'file-chosen' }
  /** `failure` is why the file cannot be imported; without one, reading it failed (the page says why). */
  | { type: 'file-refused'; failure?: ParseFailure }
  | { type: 'file-read'; file: ParsedFile; fileName: string }
  | { type: 'validation-started' }
  | { type: 'rows-validated'; done: number }
  | { type: 'validation-finished'; report: ImportRowReport[] }
  | { type: 'validation-failed' }
  | { type: 'import-started'; total: number }
  | ({ type: 'rows-imported'; done: number } & ImportCounts)
  | { type: 'import-finished' }
  | { type: 'import-failed'; error: unknown }
  | { type: 'restarted' };

export const firstImportStep: ImportStep = { kind: 'pick' };

/** The step after `event`; an event that does not belong to the current step leaves it as it is. */
export function nextImportStep(step: ImportStep, event: ImportEvent): ImportStep {
  switch (event.type) {
    case 'restarted':
      return firstImportStep;
    case 'file-chosen':
      return step.kind === 'pick' ? { kind: 'parsing' } : step;
    case 'file-refused':
      if (step.kind !== 'parsing') return step;
      return event.failure ? { kind: 'pick', failure: event.failure } : { kind: 'pick' };
    case 'file-read':
      return step.kind === 'parsing' ? { kind: 'map', file: event.file, fileName: event.fileName } : step;
    case 'validation-started':
      return step.kind === 'map' ? { ...step, kind: 'validating', done: 0 } : step;
    case 'rows-validated':
      return step.kind === 'validating' ? { ...step, done: event.done } : step;
    case 'validation-finished':
      if (step.kind !== 'validating') return step;
      return { kind: 'report', file: step.file, fileName: step.fileName, report: event.report };
    case 'validation-failed':
      // Back to the columns, with the same file: the mapping may be changed and checked again.
      return step.kind === 'validating' ? { kind: 'map', file: step.file, fileName: step.fileName } : step;
    case 'import-started': {
      if (step.kind !== 'report') return step;
      // Rows imported before are skipped from the start; the server's answers add the rows it skips.
      const skipped = step.report.filter((row) => row.status === 'imported').length;
      return { ...step, kind: 'applying', done: 0, total: event.total, counts: { created: 0, tickets: 0, skipped } };
    }
    case 'rows-imported':
      if (step.kind !== 'applying') return step;
      return {
        ...step,
        done: event.done,
        counts: {
          created: step.counts.created + event.created,
          tickets: step.counts.tickets + event.tickets,
          skipped: step.counts.skipped + event.skipped,
        },
      };
    case 'import-finished':
      return step.kind === 'applying' ? { kind: 'done', ...step.counts } : step;
    case 'import-failed':
      // Rows imported before the failure stay imported: they are counted.
      return step.kind === 'applying' ? { kind: 'done', ...step.counts, error: event.error } : step;
  }
}
