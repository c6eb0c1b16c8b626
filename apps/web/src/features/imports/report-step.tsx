import { summarizeImportReport, type ImportField } from '@admit/shared/csv';
import { Button, Card, Checkbox, Group, List, Stack, Table, Text } from '@mantine/core';
import type { Ref } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ScrollTable } from '../../lib/scroll-table';
import { rowErrorMessage, useFieldLabels } from './import-messages';
import type { ImportStep } from './import-wizard';
import type { ColumnMapping } from './parse';
import { StepHeading } from './step-heading';
import { StepProgress } from './step-progress';

/** Step 3: what the check found (rows ready, imported before, with problems); then the import itself. */
export function ReportStep({
  step,
  mapping,
  sendEmails,
  onSendEmails,
  headingRef,
  onDownload,
  onImport,
  onAnother,
}: {
  step: Extract<ImportStep, { kind: 'report' | 'applying' }>;
  mapping: ColumnMapping;
  sendEmails: boolean;
  onSendEmails(value: boolean): void;
  headingRef: Ref<HTMLHeadingElement>;
  onDownload(): void;
  onImport(): void;
  onAnother(): void;
}) {
  const intl = useIntl();
  const fieldLabels = useFieldLabels();
  const summary = summarizeImportReport(step.report);
  const problems = step.report.filter((row) => row.status === 'error');
  const problemsLabel = intl.formatMessage({ id: 'imports.report.problemsTable', defaultMessage: 'Rows with problems' });
  const cellsByLine = new Map(step.file.rows.map((row) => [row.line, row.cells]));
  const cell = (line: number, field: ImportField) => {
    const column = mapping[field];
    return column === null ? '' : (cellsByLine.get(line)?.[column] ?? '').slice(0, 80);
  };
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <StepHeading ref={headingRef}>
          <FormattedMessage id="imports.report.title" defaultMessage="3. Check the report" />
        </StepHeading>
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
            <ScrollTable label={problemsLabel} minWidth={560}>
              <Table striped withTableBorder aria-label={problemsLabel}>
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
                      <Table.Td>{row.errors.map((error) => rowErrorMessage(intl, error)).join(' ')}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollTable>
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
