import {
  applyImport,
  completeImportReport,
  importApplyChunk,
  importFields,
  importValidateChunk,
  prepareImport,
  summarizeImportReport,
  validateImport,
  type ImportCapacity,
  type ImportField,
  type ImportRowError,
  type ImportRowReport,
} from '@admit/shared/csv';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Group,
  List,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { useErrorMessage } from '../../lib/error-message';
import { ErrorState, PageLoader } from '../../lib/page-state';
import {
  errorReportCsv,
  guessMapping,
  rowsForImport,
  type ColumnMapping,
  type ParsedFile,
  type ParseFailure,
  type ParseResult,
} from './parse';

type Step =
  | { kind: 'pick'; failure?: ParseFailure }
  | { kind: 'parsing' }
  | { kind: 'map'; file: ParsedFile; fileName: string }
  | { kind: 'validating'; file: ParsedFile; fileName: string; done: number }
  | { kind: 'report'; file: ParsedFile; fileName: string; report: ImportRowReport[] }
  | { kind: 'applying'; file: ParsedFile; fileName: string; report: ImportRowReport[]; done: number; total: number }
  | { kind: 'done'; created: number; tickets: number; skipped: number; error?: unknown };

/** Parses the file in a Web Worker (papaparse over the whole file would freeze the page). */
function parseInWorker(file: File, limits: { maxBytes: number; maxRows: number }): Promise<ParseResult> {
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

function failureMessage(intl: IntlShape, failure: ParseFailure): string {
  const megabytes = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;
  switch (failure.kind) {
    case 'empty':
      return intl.formatMessage({ id: 'imports.failure.empty', defaultMessage: 'The file is empty.' });
    case 'header-only':
      return intl.formatMessage({ id: 'imports.failure.headerOnly', defaultMessage: 'The file has a header row but no guests.' });
    case 'binary':
      return intl.formatMessage(
        {
          id: 'imports.failure.binary',
          defaultMessage:
            'This is not a CSV file: line {line, number} has characters no text file has. Save the list as CSV and try again.',
        },
        { line: failure.line },
      );
    case 'unclosed-quote':
      return intl.formatMessage(
        {
          id: 'imports.failure.unclosedQuote',
          defaultMessage: 'Line {line, number} opens a quotation mark that is never closed. Nothing was imported.',
        },
        { line: failure.line },
      );
    case 'malformed-quote':
      return intl.formatMessage(
        {
          id: 'imports.failure.malformedQuote',
          defaultMessage: 'Line {line, number} has a quotation mark in the wrong place. Nothing was imported.',
        },
        { line: failure.line },
      );
    case 'too-many-rows':
      return intl.formatMessage(
        {
          id: 'imports.failure.tooManyRows',
          defaultMessage:
            'The file has {rows, number} rows; at most {maxRows, number} can be imported at once. Split it into smaller files.',
        },
        { rows: failure.rows, maxRows: failure.maxRows },
      );
    case 'too-large':
      return intl.formatMessage(
        {
          id: 'imports.failure.tooLarge',
          defaultMessage: 'The file is {size, number} MB; at most {max, number} MB can be imported at once.',
        },
        { size: megabytes(failure.bytes), max: megabytes(failure.maxBytes) },
      );
  }
}

function rowErrorMessage(intl: IntlShape, error: ImportRowError): string {
  switch (error.code) {
    case 'email-missing':
      return intl.formatMessage({ id: 'imports.error.emailMissing', defaultMessage: 'The email address is missing.' });
    case 'email-invalid':
      return intl.formatMessage({ id: 'imports.error.emailInvalid', defaultMessage: 'The email address is not valid.' });
    case 'ticket-type-unknown':
      return intl.formatMessage({
        id: 'imports.error.ticketTypeUnknown',
        defaultMessage: 'The ticket type is not one of this event’s.',
      });
    case 'quantity-invalid':
      return intl.formatMessage({
        id: 'imports.error.quantityInvalid',
        defaultMessage: 'The quantity must be a whole number from 1 to 1,000.',
      });
    case 'capacity-exceeded':
      return intl.formatMessage({
        id: 'imports.error.capacityExceeded',
        defaultMessage: 'Not enough places are left for this row.',
      });
    case 'duplicate-row':
      return intl.formatMessage(
        { id: 'imports.error.duplicate', defaultMessage: 'This guest is already on line {line, number}.' },
        { line: error.line ?? 0 },
      );
    case 'too-long':
      return intl.formatMessage(
        {
          id: 'imports.error.tooLong',
          defaultMessage:
            '{field, select, name {The name} email {The email address} ticketType {The ticket type} quantity {The quantity} note {The note} other {The ID}} is too long.',
        },
        { field: error.field ?? 'other' },
      );
  }
}

function useFieldLabels(): Record<ImportField, string> {
  const intl = useIntl();
  return {
    name: intl.formatMessage({ id: 'imports.field.name', defaultMessage: 'Name' }),
    email: intl.formatMessage({ id: 'imports.field.email', defaultMessage: 'Email' }),
    ticketType: intl.formatMessage({ id: 'imports.field.ticketType', defaultMessage: 'Ticket type' }),
    quantity: intl.formatMessage({ id: 'imports.field.quantity', defaultMessage: 'Quantity' }),
    note: intl.formatMessage({ id: 'imports.field.note', defaultMessage: 'Note' }),
    guestId: intl.formatMessage({ id: 'imports.field.guestId', defaultMessage: 'Guest ID' }),
  };
}

function StepProgress({ label, done, total }: { label: string; done: number; total: number }) {
  const intl = useIntl();
  const value = total === 0 ? 0 : (done / total) * 100;
  return (
    <Stack gap={4}>
      <Text id="import-progress-label" size="sm">
        {label}
      </Text>
      <Progress
        value={value}
        aria-labelledby="import-progress-label"
        aria-valuetext={intl.formatMessage(
          { id: 'imports.progress.value', defaultMessage: '{done, number} of {total, number} rows' },
          { done, total },
        )}
        animated
      />
      <Text size="xs" c="dimmed" aria-hidden>
        <FormattedMessage
          id="imports.progress.value"
          defaultMessage="{done, number} of {total, number} rows"
          values={{ done, total }}
        />
      </Text>
    </Stack>
  );
}

function downloadText(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The guest-list import of an event: file, mapping, report, import. `backLink` leads back to the event. */
export function ImportPage({ eventId, backLink }: { eventId: string; backLink: ReactNode }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const fieldLabels = useFieldLabels();
  const prepared = useQuery({ queryKey: ['imports.prepare', eventId], queryFn: () => callFunction(prepareImport, { eventId }) });
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const [mapping, setMapping] = useState<ColumnMapping | null>(null);
  const [defaultTicketTypeId, setDefaultTicketTypeId] = useState<string | null>(null);
  const [sendEmails, setSendEmails] = useState(false);
  const [callError, setCallError] = useState<unknown>(null);
  const openRef = useRef<() => void>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  if (prepared.error) return <ErrorState error={prepared.error} />;
  if (!prepared.data) return <PageLoader />;
  const limits = prepared.data;
  const ticketTypes = limits.ticketTypes;

  async function readFile(file: File) {
    setCallError(null);
    setStep({ kind: 'parsing' });
    try {
      const result = await parseInWorker(file, { maxBytes: limits.maxBytes, maxRows: limits.maxRows });
      if (!result.ok) return setStep({ kind: 'pick', failure: result.failure });
      const guessed = guessMapping(result.file.columns);
      setMapping(guessed);
      setDefaultTicketTypeId(ticketTypes.length === 1 ? ticketTypes[0]!.id : null);
      setStep({ kind: 'map', file: result.file, fileName: file.name });
      requestAnimationFrame(() => headingRef.current?.focus());
    } catch (error) {
      setCallError(error);
      setStep({ kind: 'pick' });
    }
  }

  const request = (rows: ReturnType<typeof rowsForImport>) => ({
    eventId,
    rows,
    ...(defaultTicketTypeId ? { defaultTicketTypeId } : {}),
  });

  async function validateAll(file: ParsedFile, fileName: string) {
    if (!mapping) return;
    setCallError(null);
    const rows = rowsForImport(file.rows, mapping);
    const reports: ImportRowReport[] = [];
    let capacity: ImportCapacity | null = null;
    setStep({ kind: 'validating', file, fileName, done: 0 });
    try {
      for (let start = 0; start < rows.length; start += importValidateChunk) {
        const answer = await callFunction(validateImport, request(rows.slice(start, start + importValidateChunk)));
        reports.push(...answer.rows);
        capacity = answer.capacity;
        setStep({ kind: 'validating', file, fileName, done: Math.min(rows.length, start + importValidateChunk) });
      }
      // Duplicates and capacity across the whole file, not just within each chunk.
      setStep({ kind: 'report', file, fileName, report: completeImportReport(reports, capacity!) });
      requestAnimationFrame(() => headingRef.current?.focus());
    } catch (error) {
      setCallError(error);
      setStep({ kind: 'map', file, fileName });
    }
  }

  async function applyAll(file: ParsedFile, fileName: string, report: ImportRowReport[]) {
    if (!mapping) return;
    setCallError(null);
    const okLines = new Set(report.filter((row) => row.status === 'ok').map((row) => row.line));
    const rows = rowsForImport(
      file.rows.filter((row) => okLines.has(row.line)),
      mapping,
    );
    let created = 0;
    let tickets = 0;
    let skipped = report.filter((row) => row.status === 'imported').length;
    setStep({ kind: 'applying', file, fileName, report, done: 0, total: rows.length });
    try {
      for (let start = 0; start < rows.length; start += importApplyChunk) {
        const answer = await callFunction(applyImport, { ...request(rows.slice(start, start + importApplyChunk)), sendEmails });
        created += answer.created;
        tickets += answer.tickets;
        skipped += answer.skipped;
        setStep({
          kind: 'applying',
          file,
          fileName,
          report,
          done: Math.min(rows.length, start + importApplyChunk),
          total: rows.length,
        });
      }
      setStep({ kind: 'done', created, tickets, skipped });
    } catch (error) {
      setStep({ kind: 'done', created, tickets, skipped, error });
    }
    requestAnimationFrame(() => headingRef.current?.focus());
  }

  function downloadReport(file: ParsedFile, fileName: string, report: ImportRowReport[]) {
    const byLine = new Map(report.map((row) => [row.line, row]));
    const statusLabel = (row: ImportRowReport | undefined) =>
      row?.status === 'ok'
        ? intl.formatMessage({ id: 'imports.status.ok', defaultMessage: 'Ready' })
        : row?.status === 'imported'
          ? intl.formatMessage({ id: 'imports.status.imported', defaultMessage: 'Already imported' })
          : intl.formatMessage({ id: 'imports.status.error', defaultMessage: 'Error' });
    const csv = errorReportCsv(
      file.columns,
      file.rows
        .filter((row) => byLine.get(row.line)?.status === 'error')
        .map((row) => {
          const reported = byLine.get(row.line);
          return {
            line: row.line,
            cells: row.cells,
            status: statusLabel(reported),
            problems: (reported?.errors ?? []).map((error) => rowErrorMessage(intl, error)).join(' '),
          };
        }),
      {
        line: intl.formatMessage({ id: 'imports.report.line', defaultMessage: 'Line' }),
        status: intl.formatMessage({ id: 'imports.report.status', defaultMessage: 'Status' }),
        problems: intl.formatMessage({ id: 'imports.report.problems', defaultMessage: 'Problems' }),
      },
    );
    downloadText(csv, `${fileName.replace(/\.(csv|txt)$/i, '')}-errors.csv`);
  }

  const heading = (text: ReactNode) => (
    <Title order={2} size="h4" ref={headingRef} tabIndex={-1}>
      {text}
    </Title>
  );
  const noneLabel = intl.formatMessage({ id: 'imports.map.none', defaultMessage: 'Not in the file' });

  return (
    <Stack gap="lg">
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

      {(step.kind === 'pick' || step.kind === 'parsing') && (
        <Card withBorder padding="lg">
          <Stack gap="md">
            {heading(<FormattedMessage id="imports.pick.title" defaultMessage="1. Choose the file" />)}
            <Dropzone
              onDrop={(files) => files[0] && void readFile(files[0])}
              onReject={(rejections) => rejections[0] && void readFile(rejections[0].file)}
              accept={['text/csv', 'text/plain', 'text/tab-separated-values', 'application/vnd.ms-excel', '.csv', '.tsv', '.txt']}
              multiple={false}
              loading={step.kind === 'parsing'}
              openRef={openRef}
              activateOnClick
              aria-label={intl.formatMessage({ id: 'imports.drop.label', defaultMessage: 'Guest list file (CSV)' })}
            >
              <Stack align="center" gap={4} py="lg" style={{ pointerEvents: 'none' }}>
                <Text fw={500} ta="center">
                  <FormattedMessage id="imports.drop.title" defaultMessage="Drop a CSV file here, or click to choose one" />
                </Text>
                <Text size="sm" c="dimmed" ta="center">
                  <FormattedMessage
                    id="imports.drop.hint"
                    defaultMessage="UTF-8 or Windows-1252, separated by commas, semicolons or tabs; up to {maxRows, number} rows and {maxMb, number} MB."
                    values={{ maxRows: limits.maxRows, maxMb: Math.round((limits.maxBytes / 1_048_576) * 10) / 10 }}
                  />
                </Text>
              </Stack>
            </Dropzone>
            {step.kind === 'pick' && step.failure && (
              <Alert
                color="red"
                role="alert"
                title={intl.formatMessage({ id: 'imports.failure.title', defaultMessage: 'This file cannot be imported' })}
              >
                {failureMessage(intl, step.failure)}
              </Alert>
            )}
            {callError !== null && (
              <Alert color="red" role="alert">
                {errorMessage(callError)}
              </Alert>
            )}
          </Stack>
        </Card>
      )}

      {(step.kind === 'map' || step.kind === 'validating') && mapping && (
        <Card withBorder padding="lg">
          <Stack gap="md">
            {heading(<FormattedMessage id="imports.map.title" defaultMessage="2. Match the columns" />)}
            <Text size="sm">
              <FormattedMessage
                id="imports.map.file"
                defaultMessage="{fileName}: {rows, plural, one {# row} other {# rows}}, {encoding}, separated by {delimiter, select, tab {tabs} semicolon {semicolons} other {commas}}."
                values={{
                  fileName: step.fileName,
                  rows: step.file.rows.length,
                  encoding:
                    step.file.encoding === 'windows-1252'
                      ? 'Windows-1252'
                      : step.file.encoding === 'utf-8-bom'
                        ? 'UTF-8 (BOM)'
                        : step.file.encoding.toUpperCase(),
                  delimiter: step.file.delimiter === '\t' ? 'tab' : step.file.delimiter === ';' ? 'semicolon' : 'comma',
                }}
              />
            </Text>
            {step.file.duplicateColumns.length > 0 && (
              <Alert color="yellow">
                <FormattedMessage
                  id="imports.map.duplicateColumns"
                  defaultMessage="Several columns have the same name ({names}); they are numbered below so you can choose the right one."
                  values={{ names: step.file.duplicateColumns.join(', ') }}
                />
              </Alert>
            )}
            <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
              {importFields.map((field) => (
                <Select
                  key={field}
                  label={fieldLabels[field]}
                  required={field === 'email'}
                  data={[
                    { value: 'none', label: noneLabel },
                    ...step.file.columns.map((column, index) => ({
                      value: String(index),
                      label: intl.formatMessage(
                        { id: 'imports.map.column', defaultMessage: 'Column {number, number}: {name}' },
                        { number: index + 1, name: column || '—' },
                      ),
                    })),
                  ]}
                  value={mapping[field] === null ? 'none' : String(mapping[field])}
                  onChange={(value) =>
                    setMapping({ ...mapping, [field]: value === null || value === 'none' ? null : Number(value) })
                  }
                  allowDeselect={false}
                  disabled={step.kind === 'validating'}
                />
              ))}
              <Select
                label={intl.formatMessage({ id: 'imports.map.defaultType', defaultMessage: 'Ticket type for rows without one' })}
                data={ticketTypes.map((type) => ({ value: type.id, label: type.name }))}
                value={defaultTicketTypeId}
                onChange={setDefaultTicketTypeId}
                placeholder={intl.formatMessage({ id: 'imports.map.noDefault', defaultMessage: 'None: each row names its own' })}
                clearable
                disabled={step.kind === 'validating'}
              />
            </SimpleGrid>

            <Title order={3} size="h5">
              <FormattedMessage id="imports.preview.title" defaultMessage="Preview of the first rows" />
            </Title>
            <Table.ScrollContainer minWidth={560}>
              <Table striped withTableBorder>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>
                      <FormattedMessage id="imports.report.line" defaultMessage="Line" />
                    </Table.Th>
                    {importFields.map((field) => (
                      <Table.Th key={field}>{fieldLabels[field]}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rowsForImport(step.file.rows.slice(0, 5), mapping).map((row) => (
                    <Table.Tr key={row.line}>
                      <Table.Td>{intl.formatNumber(row.line)}</Table.Td>
                      {importFields.map((field) => (
                        <Table.Td key={field} style={{ maxWidth: 220, overflowWrap: 'anywhere' }}>
                          {(row[field] ?? '').slice(0, 120)}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {callError !== null && (
              <Alert color="red" role="alert">
                {errorMessage(callError)}
              </Alert>
            )}
            {step.kind === 'validating' ? (
              <StepProgress
                label={intl.formatMessage({ id: 'imports.validating', defaultMessage: 'Checking the rows…' })}
                done={step.done}
                total={step.file.rows.length}
              />
            ) : (
              <Group>
                <Button onClick={() => void validateAll(step.file, step.fileName)} disabled={mapping.email === null}>
                  <FormattedMessage
                    id="imports.validate"
                    defaultMessage="Check {rows, plural, one {# row} other {# rows}}"
                    values={{ rows: step.file.rows.length }}
                  />
                </Button>
                <Button variant="default" onClick={() => setStep({ kind: 'pick' })}>
                  <FormattedMessage id="imports.another" defaultMessage="Choose another file" />
                </Button>
              </Group>
            )}
          </Stack>
        </Card>
      )}

      {(step.kind === 'report' || step.kind === 'applying') && (
        <ReportCard
          step={step}
          heading={heading(<FormattedMessage id="imports.report.title" defaultMessage="3. Check the report" />)}
          sendEmails={sendEmails}
          onSendEmails={setSendEmails}
          onDownload={() => downloadReport(step.file, step.fileName, step.report)}
          onImport={() => void applyAll(step.file, step.fileName, step.report)}
          onAnother={() => setStep({ kind: 'pick' })}
          rowErrorMessage={(error) => rowErrorMessage(intl, error)}
          fieldLabels={fieldLabels}
          mapping={mapping!}
        />
      )}

      {step.kind === 'done' && (
        <Card withBorder padding="lg">
          <Stack gap="md">
            {heading(<FormattedMessage id="imports.done.title" defaultMessage="4. Done" />)}
            <Alert color={step.error ? 'red' : 'green'} role="status">
              <FormattedMessage
                id="imports.done.body"
                defaultMessage="{created, plural, =0 {No new guests were imported} one {# guest was imported} other {# guests were imported}} ({tickets, plural, one {# ticket} other {# tickets}}); {skipped, plural, =0 {none had been imported before} one {# row had been imported before and was skipped} other {# rows had been imported before and were skipped}}."
                values={{ created: step.created, tickets: step.tickets, skipped: step.skipped }}
              />
            </Alert>
            {step.error !== undefined && (
              <Alert color="red" role="alert">
                <FormattedMessage
                  id="imports.done.stopped"
                  defaultMessage="The import stopped: {reason} Rows imported before it stopped stay imported; importing the file again adds only the rest."
                  values={{ reason: errorMessage(step.error) }}
                />
              </Alert>
            )}
            <Group>
              <Button variant="default" onClick={() => setStep({ kind: 'pick' })}>
                <FormattedMessage id="imports.importAnother" defaultMessage="Import another file" />
              </Button>
            </Group>
          </Stack>
        </Card>
      )}
    </Stack>
  );
}

function ReportCard({
  step,
  heading,
  sendEmails,
  onSendEmails,
  onDownload,
  onImport,
  onAnother,
  rowErrorMessage: messageOf,
  fieldLabels,
  mapping,
}: {
  step: Extract<Step, { kind: 'report' | 'applying' }>;
  heading: ReactNode;
  sendEmails: boolean;
  onSendEmails(value: boolean): void;
  onDownload(): void;
  onImport(): void;
  onAnother(): void;
  rowErrorMessage(error: ImportRowError): string;
  fieldLabels: Record<ImportField, string>;
  mapping: ColumnMapping;
}) {
  const intl = useIntl();
  const summary = summarizeImportReport(step.report);
  const problems = step.report.filter((row) => row.status === 'error');
  const cellsByLine = new Map(step.file.rows.map((row) => [row.line, row.cells]));
  const cell = (line: number, field: ImportField) => {
    const column = mapping[field];
    return column === null ? '' : (cellsByLine.get(line)?.[column] ?? '').slice(0, 80);
  };
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        {heading}
        <List spacing={4} aria-label={intl.formatMessage({ id: 'imports.report.summary', defaultMessage: 'Summary' })}>
          <List.Item>
            <FormattedMessage
              id="imports.report.ok"
              defaultMessage="{rows, plural, one {# row is} other {# rows are}} ready to import ({tickets, plural, one {# ticket} other {# tickets}})"
              values={{ rows: summary.ok, tickets: summary.tickets }}
            />
          </List.Item>
          {summary.imported > 0 && (
            <List.Item>
              <FormattedMessage
                id="imports.report.imported"
                defaultMessage="{rows, plural, one {# row was} other {# rows were}} imported before and will be skipped"
                values={{ rows: summary.imported }}
              />
            </List.Item>
          )}
          {summary.errors > 0 && (
            <List.Item>
              <FormattedMessage
                id="imports.report.errors"
                defaultMessage="{rows, plural, one {# row has} other {# rows have}} problems and will not be imported"
                values={{ rows: summary.errors }}
              />
            </List.Item>
          )}
        </List>
        {problems.length > 0 && (
          <>
            <Table.ScrollContainer minWidth={560}>
              <Table
                striped
                withTableBorder
                aria-label={intl.formatMessage({ id: 'imports.report.problemsTable', defaultMessage: 'Rows with problems' })}
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>
                      <FormattedMessage id="imports.report.line" defaultMessage="Line" />
                    </Table.Th>
                    <Table.Th>{fieldLabels.name}</Table.Th>
                    <Table.Th>{fieldLabels.email}</Table.Th>
                    <Table.Th>
                      <FormattedMessage id="imports.report.problems" defaultMessage="Problems" />
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {problems.slice(0, 100).map((row) => (
                    <Table.Tr key={row.line}>
                      <Table.Td>{intl.formatNumber(row.line)}</Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{cell(row.line, 'name')}</Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{cell(row.line, 'email')}</Table.Td>
                      <Table.Td>{row.errors.map(messageOf).join(' ')}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {problems.length > 100 && (
              <Text size="sm" c="dimmed">
                <FormattedMessage
                  id="imports.report.more"
                  defaultMessage="The first 100 are shown; the error report has all {rows, number}."
                  values={{ rows: problems.length }}
                />
              </Text>
            )}
            <Button variant="light" onClick={onDownload} style={{ alignSelf: 'flex-start' }} disabled={step.kind === 'applying'}>
              <FormattedMessage id="imports.report.download" defaultMessage="Download the error report (CSV)" />
            </Button>
          </>
        )}
        <Checkbox
          checked={sendEmails}
          onChange={(event) => onSendEmails(event.currentTarget.checked)}
          label={intl.formatMessage({ id: 'imports.sendEmails', defaultMessage: 'Email each new guest their tickets' })}
          disabled={step.kind === 'applying'}
        />
        {step.kind === 'applying' ? (
          <StepProgress
            label={intl.formatMessage({ id: 'imports.applying', defaultMessage: 'Importing…' })}
            done={step.done}
            total={step.total}
          />
        ) : (
          <Group>
            <Button onClick={onImport} disabled={summary.ok === 0}>
              <FormattedMessage
                id="imports.apply"
                defaultMessage="Import {rows, plural, one {# guest} other {# guests}}"
                values={{ rows: summary.ok }}
              />
            </Button>
            <Button variant="default" onClick={onAnother}>
              <FormattedMessage id="imports.another" defaultMessage="Choose another file" />
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
