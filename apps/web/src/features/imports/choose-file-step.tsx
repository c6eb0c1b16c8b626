import { Alert, Card, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { useRef, type Ref } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { useErrorMessage } from '../../lib/error-message';
import type { ImportStep } from './import-wizard';
import type { ParseFailure } from './parse';
import { StepHeading } from './step-heading';

/** Step 1: the file, dropped or chosen; why it cannot be imported, if it cannot. */
export function ChooseFileStep({
  step,
  limits,
  callError,
  headingRef,
  onFile,
}: {
  step: Extract<ImportStep, { kind: 'pick' | 'parsing' }>;
  limits: { maxBytes: number; maxRows: number };
  callError: unknown;
  headingRef: Ref<HTMLHeadingElement>;
  onFile(file: File): void;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const openRef = useRef<() => void>(null);
  const fileLabel = intl.formatMessage({ id: 'imports.drop.label', defaultMessage: 'Guest list file (CSV)' });
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <StepHeading ref={headingRef}>
          <FormattedMessage id="imports.pick.title" defaultMessage="1. Choose the file" />
        </StepHeading>
        <Dropzone
          onDrop={(files) => files[0] && onFile(files[0])}
          onReject={(rejections) => rejections[0] && onFile(rejections[0].file)}
          accept={['text/csv', 'text/plain', 'text/tab-separated-values', 'application/vnd.ms-excel', '.csv', '.tsv', '.txt']}
          multiple={false}
          loading={step.kind === 'parsing'}
          openRef={openRef}
          activateOnClick
          aria-label={fileLabel}
          // The file input inside is what a screen reader reaches in a form: it needs the same name.
          inputProps={{ 'aria-label': fileLabel }}
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
