import { importFields } from '@admit/shared/csv';
import { Alert, Button, Card, Group, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { Ref } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useErrorMessage } from '../../lib/error-message';
import { ScrollTable } from '../../lib/scroll-table';
import { useFieldLabels } from './import-messages';
import type { ImportStep } from './import-wizard';
import { rowsForImport, type ColumnMapping } from './parse';
import { StepHeading } from './step-heading';
import { StepProgress } from './step-progress';

/** Step 2: which column holds which field, with a preview of the first rows; then the check of every row. */
export function MapColumnsStep({
  step,
  mapping,
  onMapping,
  ticketTypes,
  defaultTicketTypeId,
  onDefaultTicketTypeId,
  callError,
  headingRef,
  onValidate,
  onAnother,
}: {
  step: Extract<ImportStep, { kind: 'map' | 'validating' }>;
  mapping: ColumnMapping;
  onMapping(mapping: ColumnMapping): void;
  ticketTypes: { id: string; name: string }[];
  defaultTicketTypeId: string | null;
  onDefaultTicketTypeId(id: string | null): void;
  callError: unknown;
  headingRef: Ref<HTMLHeadingElement>;
  onValidate(): void;
  onAnother(): void;
}) {
  const intl = useIntl();
  const previewLabel = intl.formatMessage({ id: 'imports.preview.title', defaultMessage: 'Preview of the first rows' });
  const errorMessage = useErrorMessage();
  const fieldLabels = useFieldLabels();
  const noneLabel = intl.formatMessage({ id: 'imports.map.none', defaultMessage: 'Not in the file' });
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <StepHeading ref={headingRef}>
          <FormattedMessage id="imports.map.title" defaultMessage="2. Match the columns" />
        </StepHeading>
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
              onChange={(value) => onMapping({ ...mapping, [field]: value === null || value === 'none' ? null : Number(value) })}
              allowDeselect={false}
              disabled={step.kind === 'validating'}
            />
          ))}
          <Select
            label={intl.formatMessage({ id: 'imports.map.defaultType', defaultMessage: 'Ticket type for rows without one' })}
            data={ticketTypes.map((type) => ({ value: type.id, label: type.name }))}
            value={defaultTicketTypeId}
            onChange={onDefaultTicketTypeId}
            placeholder={intl.formatMessage({ id: 'imports.map.noDefault', defaultMessage: 'None: each row names its own' })}
            clearable
            disabled={step.kind === 'validating'}
          />
        </SimpleGrid>

        <Title order={3} size="h5">
          {previewLabel}
        </Title>
        <ScrollTable label={previewLabel} minWidth={560}>
          <Table striped withTableBorder aria-label={previewLabel}>
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
        </ScrollTable>
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
            <Button onClick={onValidate} disabled={mapping.email === null && mapping.name === null}>
              <FormattedMessage
                id="imports.validate"
                defaultMessage="Check {rows, plural, one {# row} other {# rows}}"
                values={{ rows: step.file.rows.length }}
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
