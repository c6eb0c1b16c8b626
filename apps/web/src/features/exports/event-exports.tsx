import { exportPath, exportRowCountHeader, type ExportKind } from '@admit/shared/csv';
import { Alert, Button, Card, Checkbox, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callErrorOf } from '../../lib/callable';
import { useErrorMessage } from '../../lib/error-message';
import { useLocale } from '../../lib/i18n';

/** The file name the server gave (RFC 6266 `filename*` first), or a stand-in. */
function fileNameOf(disposition: string | null, fallback: string): string {
  const extended = disposition?.match(/filename\*=UTF-8''([^;]+)/i)?.[1];
  if (extended) return decodeURIComponent(extended);
  return disposition?.match(/filename="([^"]+)"/i)?.[1] ?? fallback;
}

/**
 * Downloads an export, counting its lines as they stream in against the row count the server
 * announces, so a long list shows how far it has got; then hands the file to the browser.
 */
async function downloadExport(path: string, fallbackName: string, onProgress: (fraction: number) => void) {
  const response = await fetch(path, { credentials: 'include' });
  if (!response.ok) {
    throw callErrorOf(await response.json().catch(() => null), response.status, response.statusText);
  }
  const expected = Number(response.headers.get(exportRowCountHeader) ?? 0) + 1;
  const chunks: Uint8Array[] = [];
  let lines = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    for (const byte of value) if (byte === 0x0a) lines += 1;
    onProgress(Math.min(1, lines / expected));
  }
  const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response.headers.get('content-disposition'), fallbackName);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The event's lists as CSV files, and the way in to the guest-list import. `door`: staff, who get
 * the attendee list only (the server allows them nothing more).
 */
export function EventExports({ eventId, importLink, door = false }: { eventId: string; importLink?: ReactNode; door?: boolean }) {
  const intl = useIntl();
  const { locale } = useLocale();
  const errorMessage = useErrorMessage();
  const [excel, setExcel] = useState(false);
  const [running, setRunning] = useState<ExportKind | null>(null);
  const [progress, setProgress] = useState(0);
  const [error, setError] = useState<unknown>(null);

  const labels: Record<ExportKind, string> = {
    attendees: intl.formatMessage({ id: 'exports.attendees', defaultMessage: 'Attendees' }),
    orders: intl.formatMessage({ id: 'exports.orders', defaultMessage: 'Orders' }),
    'check-ins': intl.formatMessage({ id: 'exports.checkIns', defaultMessage: 'Check-ins' }),
    codes: intl.formatMessage({ id: 'exports.codes', defaultMessage: 'Codes' }),
    waitlist: intl.formatMessage({ id: 'exports.waitlist', defaultMessage: 'Waiting list' }),
  };
  const kinds: ExportKind[] = door ? ['attendees'] : ['attendees', 'orders', 'check-ins', 'codes', 'waitlist'];

  async function start(kind: ExportKind) {
    setRunning(kind);
    setProgress(0);
    setError(null);
    try {
      await downloadExport(exportPath(eventId, kind, { excel, locale }), `${kind}.csv`, setProgress);
    } catch (failure) {
      setError(failure);
    } finally {
      setRunning(null);
    }
  }

  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Title order={2} size="h4">
          {door ? (
            <FormattedMessage id="exports.doorTitle" defaultMessage="Attendee list" />
          ) : (
            <FormattedMessage id="exports.title" defaultMessage="Lists and guest list" />
          )}
        </Title>
        <Text size="sm" c="dimmed">
          {door ? (
            <FormattedMessage id="exports.doorBody" defaultMessage="Download the list of attendees as a CSV file." />
          ) : (
            <FormattedMessage
              id="exports.body"
              defaultMessage="Download the event's lists as CSV files, or import a guest list of complimentary tickets."
            />
          )}
        </Text>
        <Group gap="sm" role="group" aria-label={intl.formatMessage({ id: 'exports.group', defaultMessage: 'Download a list' })}>
          {kinds.map((kind) => (
            <Button
              key={kind}
              variant="default"
              onClick={() => void start(kind)}
              loading={running === kind}
              disabled={running !== null && running !== kind}
            >
              <FormattedMessage id="exports.download" defaultMessage="{list} (CSV)" values={{ list: labels[kind] }} />
            </Button>
          ))}
          {importLink}
        </Group>
        <Checkbox
          checked={excel}
          onChange={(event) => setExcel(event.currentTarget.checked)}
          label={intl.formatMessage({ id: 'exports.excel', defaultMessage: 'For Excel' })}
          description={intl.formatMessage({
            id: 'exports.excelHint',
            defaultMessage:
              'Adds a byte order mark, and separates cells with semicolons where your language writes decimals with a comma.',
          })}
        />
        {running && (
          <Progress
            value={progress * 100}
            aria-label={intl.formatMessage(
              { id: 'exports.progress', defaultMessage: 'Downloading {list}' },
              { list: labels[running] },
            )}
            aria-valuetext={intl.formatNumber(progress, { style: 'percent' })}
          />
        )}
        {error !== null && (
          <Alert color="red" role="alert">
            {errorMessage(error)}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
