import { undoWindowMs } from '@admit/shared/checkin';
import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { verdictOf, type ScanEntry } from './scan-log';

const looks = {
  accepted: { color: 'green', Icon: IconCircleCheck },
  provisional: { color: 'teal', Icon: IconCircleCheck },
  duplicate: { color: 'orange', Icon: IconAlertTriangle },
  void: { color: 'red', Icon: IconCircleX },
  unknown: { color: 'red', Icon: IconCircleX },
} as const;

/** The verdict of the latest scan, big enough to read at arm's length, in colour and in words. */
export function ScanVerdict({ entry, onUndo }: { entry: ScanEntry; onUndo?: () => void }) {
  const intl = useIntl();
  const verdict = verdictOf(entry);
  const { color, Icon } = looks[verdict.result];
  // The undo button goes when its minute is up (the parent keys this by scan, so it starts afresh).
  const [undoOpen, setUndoOpen] = useState(true);
  useEffect(() => {
    const left = undoWindowMs - (Date.now() - new Date(entry.scannedAt).getTime());
    const timer = setTimeout(() => setUndoOpen(false), Math.max(0, left));
    return () => clearTimeout(timer);
  }, [entry.scannedAt]);
  const time = (at: string) => intl.formatTime(at, { hour: 'numeric', minute: '2-digit' });

  return (
    <Paper
      role="alert"
      p="lg"
      radius="md"
      bg={`${color}.1`}
      style={{ borderLeft: `8px solid var(--mantine-color-${color}-6)` }}
      data-testid="scan-verdict"
      data-result={entry.undone ? 'undone' : verdict.result}
    >
      <Stack gap={6}>
        <Group gap="sm" wrap="nowrap">
          <Icon size={40} color={`var(--mantine-color-${color}-7)`} aria-hidden />
          <Text fw={800} fz={28} c={`${color}.9`} lh={1.1}>
            {entry.undone ? (
              <FormattedMessage id="scanner.verdict.undone" defaultMessage="Admission undone" />
            ) : verdict.result === 'accepted' ? (
              <FormattedMessage id="scanner.verdict.accepted" defaultMessage="Admitted" />
            ) : verdict.result === 'provisional' ? (
              <FormattedMessage id="scanner.verdict.provisional" defaultMessage="Admitted provisionally" />
            ) : verdict.result === 'duplicate' ? (
              <FormattedMessage id="scanner.verdict.duplicate" defaultMessage="Already checked in" />
            ) : verdict.result === 'void' ? (
              <FormattedMessage id="scanner.verdict.void" defaultMessage="Void — refunded or cancelled" />
            ) : (
              <FormattedMessage id="scanner.verdict.unknown" defaultMessage="Unknown ticket" />
            )}
          </Text>
        </Group>
        {verdict.holderName && (
          <Text fw={700} fz="xl">
            {verdict.holderName}
          </Text>
        )}
        {verdict.ticketTypeName && <Text>{verdict.ticketTypeName}</Text>}
        {verdict.result === 'duplicate' && verdict.first && (
          <Text fw={600}>
            <FormattedMessage
              id="scanner.verdict.first"
              defaultMessage="at {time} at {device}"
              values={{ time: time(verdict.first.at), device: verdict.first.device }}
            />
          </Text>
        )}
        {verdict.result === 'provisional' && (
          <Text size="sm">
            <FormattedMessage
              id="scanner.verdict.provisionalHint"
              defaultMessage="A genuine ticket of this event that this device has not seen yet (bought after its last update). The server checks it when the scan syncs."
            />
          </Text>
        )}
        {verdict.result === 'unknown' && (
          <Text size="sm">
            <FormattedMessage id="scanner.verdict.unknownHint" defaultMessage="No ticket of this event has this code." />
          </Text>
        )}
        <Group justify="space-between" mt={4}>
          {entry.server ? (
            <Badge variant="white" color="gray">
              <FormattedMessage id="scanner.verdict.synced" defaultMessage="Synced" />
            </Badge>
          ) : (
            <Badge variant="white" color="orange">
              <FormattedMessage id="scanner.verdict.notSynced" defaultMessage="Not synced yet" />
            </Badge>
          )}
          {onUndo && undoOpen && (
            <Button variant="white" color="dark" onClick={onUndo}>
              <FormattedMessage id="scanner.verdict.undo" defaultMessage="Undo admission" />
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
