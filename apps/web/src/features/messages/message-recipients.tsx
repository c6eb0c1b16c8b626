import { messageRecipients, messageRecipientsShown } from '@admit/shared/attendee-messages';
import { isLocale, localeNames } from '@admit/shared/locales';
import { Badge, Stack, Table, Text } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLiveQuery } from '../../lib/live';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { ScrollTable } from '../../lib/scroll-table';

/** The record of a message: each person it went to, in which language, and whether it has gone out. */
export function MessageRecipients({ eventId, messageId, total }: { eventId: string; messageId: string; total: number }) {
  const intl = useIntl();
  const { rows, error } = useLiveQuery(messageRecipients, { eventId, messageId });
  if (error) return <ErrorState error={error} />;
  if (!rows) return <PageLoader />;
  const label = intl.formatMessage({ id: 'messages.recipients.table', defaultMessage: 'Recipients' });
  return (
    <Stack gap="sm">
      {total > rows.length && (
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="messages.recipients.firstOnly"
            defaultMessage="The first {shown, number} of {total, number}, by address."
            values={{ shown: Math.min(rows.length, messageRecipientsShown), total }}
          />
        </Text>
      )}
      <ScrollTable label={label} minWidth={520}>
        <Table striped aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <FormattedMessage id="messages.recipients.person" defaultMessage="Person" />
              </Table.Th>
              <Table.Th>
                <FormattedMessage id="messages.recipients.language" defaultMessage="Language" />
              </Table.Th>
              <Table.Th>
                <FormattedMessage id="messages.recipients.status" defaultMessage="Email" />
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((person) => (
              <Table.Tr key={person.id}>
                <Table.Td>
                  <Text size="sm" fw={500} dir="auto">
                    {person.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {person.email}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{isLocale(person.locale) ? localeNames[person.locale] : person.locale}</Text>
                </Table.Td>
                <Table.Td>
                  {person.status === 'sent' && (
                    <Badge color="green" variant="light">
                      {person.sentAt
                        ? intl.formatMessage(
                            { id: 'messages.recipients.sentAt', defaultMessage: 'Sent {when}' },
                            { when: intl.formatTime(person.sentAt, { timeStyle: 'short' }) },
                          )
                        : intl.formatMessage({ id: 'messages.status.sent', defaultMessage: 'Sent' })}
                    </Badge>
                  )}
                  {person.status === 'waiting' && (
                    <Badge color="blue" variant="light">
                      <FormattedMessage id="messages.recipients.waiting" defaultMessage="Waiting" />
                    </Badge>
                  )}
                  {person.status === 'unreachable' && (
                    <Badge color="gray" variant="light">
                      <FormattedMessage id="messages.recipients.unreachable" defaultMessage="No email address" />
                    </Badge>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
    </Stack>
  );
}
