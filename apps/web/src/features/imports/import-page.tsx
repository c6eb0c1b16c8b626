import {
  applyImport,
  completeImportReport,
  importApplyChunk,
  importValidateChunk,
  prepareImport,
  validateImport,
  type ImportCapacity,
  type ImportRowReport,
} from '@admit/shared/csv';
import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useReducer, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { ErrorState, NeedsNetwork, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { ChooseFileStep } from './choose-file-step';
import { DoneStep } from './done-step';
import { downloadErrorReport } from './download-error-report';
import { firstImportStep, nextImportStep } from './import-wizard';
import { MapColumnsStep } from './map-columns-step';
import { guessMapping, rowsForImport, type ColumnMapping, type ParsedFile } from './parse';
import { parseInWorker } from './parse-in-worker';
import { ReportStep } from './report-step';

/** The guest-list import of an event: file, mapping, report, import. `backLink` leads back to the event. */
export function ImportPage({ eventId, backLink }: { eventId: string; backLink: ReactNode }) {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'pageTitle.import', defaultMessage: 'Import a guest list' }));
  const prepared = useQuery({ queryKey: ['imports.prepare', eventId], queryFn: () => callFunction(prepareImport, { eventId }) });
  const [step, dispatch] = useReducer(nextImportStep, firstImportStep);
  const [mapping, setMapping] = useState<ColumnMapping | null>(null);
  const [defaultTicketTypeId, setDefaultTicketTypeId] = useState<string | null>(null);
  const [sendEmails, setSendEmails] = useState(false);
  const [callError, setCallError] = useState<unknown>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const header = (
    <>
      {backLink}
      <Title order={1}>
        <FormattedMessage id="imports.title" defaultMessage="Import a guest list" />
      </Title>
      <Text c="dimmed">
        <FormattedMessage
          id="imports.intro"
          defaultMessage="Each row of a CSV file becomes a complimentary order with its tickets. Every row is checked before anything is written, and importing the same file again adds no one twice."
        />
      </Text>
    </>
  );
  // The import's limits come from the server; with no network they wait for it.
  if (!prepared.data)
    return (
      <Stack gap="lg">
        {header}
        {prepared.error ? (
          <ErrorState error={prepared.error} />
        ) : prepared.fetchStatus === 'paused' ? (
          <NeedsNetwork />
        ) : (
          <PageLoader />
        )}
      </Stack>
    );
  const limits = prepared.data;
  const ticketTypes = limits.ticketTypes;
  const focusHeading = () => requestAnimationFrame(() => headingRef.current?.focus());
  const restart = () => dispatch({ type: 'restarted' });

  async function readFile(file: File) {
    setCallError(null);
    dispatch({ type: 'file-chosen' });
    try {
      const result = await parseInWorker(file, { maxBytes: limits.maxBytes, maxRows: limits.maxRows });
      if (!result.ok) return dispatch({ type: 'file-refused', failure: result.failure });
      const guessed = guessMapping(result.file.columns);
      setMapping(guessed);
      setDefaultTicketTypeId(ticketTypes.length === 1 ? ticketTypes[0]!.id : null);
      dispatch({ type: 'file-read', file: result.file, fileName: file.name });
      focusHeading();
    } catch (error) {
      setCallError(error);
      dispatch({ type: 'file-refused' });
    }
  }

  const request = (rows: ReturnType<typeof rowsForImport>) => ({
    eventId,
    rows,
    ...(defaultTicketTypeId ? { defaultTicketTypeId } : {}),
  });

  async function validateAll(file: ParsedFile) {
    if (!mapping) return;
    setCallError(null);
    const rows = rowsForImport(file.rows, mapping);
    const reports: ImportRowReport[] = [];
    let capacity: ImportCapacity | null = null;
    dispatch({ type: 'validation-started' });
    try {
      for (let start = 0; start < rows.length; start += importValidateChunk) {
        const answer = await callFunction(validateImport, request(rows.slice(start, start + importValidateChunk)));
        reports.push(...answer.rows);
        capacity = answer.capacity;
        dispatch({ type: 'rows-validated', done: Math.min(rows.length, start + importValidateChunk) });
      }
      // Duplicates and capacity across the whole file, not just within each chunk.
      dispatch({ type: 'validation-finished', report: completeImportReport(reports, capacity!) });
      focusHeading();
    } catch (error) {
      setCallError(error);
      dispatch({ type: 'validation-failed' });
    }
  }

  async function applyAll(file: ParsedFile, report: ImportRowReport[]) {
    if (!mapping) return;
    setCallError(null);
    const okLines = new Set(report.filter((row) => row.status === 'ok').map((row) => row.line));
    const rows = rowsForImport(
      file.rows.filter((row) => okLines.has(row.line)),
      mapping,
    );
    dispatch({ type: 'import-started', total: rows.length });
    try {
      for (let start = 0; start < rows.length; start += importApplyChunk) {
        const answer = await callFunction(applyImport, { ...request(rows.slice(start, start + importApplyChunk)), sendEmails });
        dispatch({
          type: 'rows-imported',
          done: Math.min(rows.length, start + importApplyChunk),
          created: answer.created,
          tickets: answer.tickets,
          skipped: answer.skipped,
        });
      }
      dispatch({ type: 'import-finished' });
    } catch (error) {
      dispatch({ type: 'import-failed', error });
    }
    focusHeading();
  }

  return (
    <Stack gap="lg">
      {header}

      {(step.kind === 'pick' || step.kind === 'parsing') && (
        <ChooseFileStep
          step={step}
          limits={limits}
          callError={callError}
          headingRef={headingRef}
          onFile={(file) => void readFile(file)}
        />
      )}

      {(step.kind === 'map' || step.kind === 'validating') && mapping && (
        <MapColumnsStep
          step={step}
          mapping={mapping}
          onMapping={setMapping}
          ticketTypes={ticketTypes}
          defaultTicketTypeId={defaultTicketTypeId}
          onDefaultTicketTypeId={setDefaultTicketTypeId}
          callError={callError}
          headingRef={headingRef}
          onValidate={() => void validateAll(step.file)}
          onAnother={restart}
        />
      )}

      {(step.kind === 'report' || step.kind === 'applying') && (
        <ReportStep
          step={step}
          mapping={mapping!}
          sendEmails={sendEmails}
          onSendEmails={setSendEmails}
          headingRef={headingRef}
          onDownload={() => downloadErrorReport(intl, step.file, step.fileName, step.report)}
          onImport={() => void applyAll(step.file, step.report)}
          onAnother={restart}
        />
      )}

      {step.kind === 'done' && <DoneStep step={step} headingRef={headingRef} onAnother={restart} />}
    </Stack>
  );
}
