import { checkInCounts } from '@admit/shared/checkin';
import { Card, Group, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { IconScan } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ButtonLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';

/** The organizer's view of the doors: checked in per ticket type, live, and the way to the scanner. */
export function CheckInSummary({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const { rows } = useLiveQuery(checkInCounts, { eventId });
  const checkedIn = (rows ?? []).reduce((sum, row) => sum + row.checkedIn, 0);
  const total = (rows ?? []).reduce((sum, row) => sum + row.total, 0);
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            <FormattedMessage id="checkinSummary.title" defaultMessage="Check-in" />
          </Title>
          <ButtonLink to="/manage/events/$eventId/scan" params={{ eventId }} leftSection={<IconScan size={18} aria-hidden />}>
            <FormattedMessage id="checkinSummary.open" defaultMessage="Open the scanner" />
          </ButtonLink>
        </Group>
        <Text fw={600} data-testid="checkin-summary-total">
          <FormattedMessage
            id="scanner.counts.total"
            defaultMessage="{checkedIn, number} of {total, number} checked in"
            values={{ checkedIn, total }}
          />
        </Text>
        <Progress value={total === 0 ? 0 : (checkedIn / total) * 100} aria-hidden />
        {rows && rows.length > 1 && (
          <Table aria-label={intl.formatMessage({ id: 'checkinSummary.table', defaultMessage: 'Checked in per ticket type' })}>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>{row.name}</Table.Td>
                  <Table.Td ta="end">
                    <FormattedMessage
                      id="checkinSummary.row"
                      defaultMessage="{checkedIn, number} of {total, number}"
                      values={{ checkedIn: row.checkedIn, total: row.total }}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
