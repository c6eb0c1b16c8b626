import { eventMessages, type EventMessageRow } from '@admit/shared/attendee-messages';
import { Badge, Button, Card, Group, Modal, Progress, Spoiler, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLiveQuery } from '../../lib/live';
import { EmptyState, ErrorState, PageLoader } from '../../lib/page-state';
import { MessageRecipients } from './message-recipients';

/** Every message sent for the event, newest first, with how far its sending has come, live. */
export function SentMessages({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const { rows, isLoading, error } = useLiveQuery(eventMessages, { eventId });
  return (
    <Stack gap="md" component="section" aria-labelledby="sent-messages">
      <Title order={2} size="h4" id="sent-messages">
        <FormattedMessage id="messages.sent.title" defaultMessage="Sent messages" />
      </Title>
      {error && <ErrorState error={error} />}
      {isLoading && <PageLoader />}
      {rows && rows.length === 0 && (
        <EmptyState title={intl.formatMessage({ id: 'messages.sent.empty.title', defaultMessage: 'No messages yet' })}>
          <FormattedMessage
            id="messages.sent.empty.body"
            defaultMessage="Messages you send appear here, with how far their sending has come."
          />
        </EmptyState>
      )}
      {rows?.map((message) => (
        <SentMessage key={message.id} eventId={eventId} message={message} />
      ))}
    </Stack>
  );
}

function SentMessage({ eventId, message }: { eventId: string; message: EventMessageRow }) {
  const intl = useIntl();
  const [showRecipients, setShowRecipients] = useState(false);
  const reachable = message.recipients - message.unreachable;
  const done = message.finishedAt !== null;
  return (
    <Card withBorder padding="lg" component="article" aria-label={message.subject}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={3} size="h5" dir="auto">
            {message.subject}
          </Title>
          <Badge color={done ? 'green' : 'blue'} variant="light" style={{ flexShrink: 0 }}>
            {done ? (
              <FormattedMessage id="messages.status.sent" defaultMessage="Sent" />
            ) : (
              <FormattedMessage id="messages.status.sending" defaultMessage="Sending" />
            )}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="messages.sentBy"
            defaultMessage="{author, select, none {Sent} other {By {author}}} · {when} · {audience}"
            values={{
              author: message.authorName ?? 'none',
              when: intl.formatDate(message.createdAt, { dateStyle: 'medium', timeStyle: 'short' }),
              audience: <AudienceSummary key="audience" message={message} />,
            }}
          />
        </Text>
        <Spoiler
          maxHeight={88}
          showLabel={intl.formatMessage({ id: 'messages.body.more', defaultMessage: 'Show all' })}
          hideLabel={intl.formatMessage({ id: 'messages.body.less', defaultMessage: 'Show less' })}
        >
          <Text size="sm" style={{ whiteSpace: 'pre-line' }} dir="auto">
            {message.body}
          </Text>
        </Spoiler>
        <Progress
          value={reachable === 0 ? 100 : (100 * message.sent) / reachable}
          color={done ? 'green' : 'blue'}
          aria-label={intl.formatMessage({ id: 'messages.progress', defaultMessage: 'Emails sent' })}
        />
        <Group justify="space-between">
          <Text size="sm" data-testid="message-progress">
            <FormattedMessage
              id="messages.progress.count"
              defaultMessage="{sent, number} of {count, plural, one {# email} other {# emails}} sent"
              values={{ sent: message.sent, count: reachable }}
            />
            {message.unreachable > 0 && (
              <>
                {' · '}
                <FormattedMessage
                  id="messages.progress.unreachable"
                  defaultMessage="{count, plural, one {# person without an email address} other {# people without an email address}}"
                  values={{ count: message.unreachable }}
                />
              </>
            )}
          </Text>
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => setShowRecipients(true)}
            aria-label={intl.formatMessage(
              { id: 'messages.recipients.openFor', defaultMessage: 'Who got it: {subject}' },
              { subject: message.subject },
            )}
          >
            <FormattedMessage id="messages.recipients.open" defaultMessage="Who got it" />
          </Button>
        </Group>
      </Stack>
      <Modal
        opened={showRecipients}
        onClose={() => setShowRecipients(false)}
        size="lg"
        title={
          <FormattedMessage
            id="messages.recipients.title"
            defaultMessage="Who got “{subject}”"
            values={{ subject: message.subject }}
          />
        }
      >
        {showRecipients && <MessageRecipients eventId={eventId} messageId={message.id} total={message.recipients} />}
      </Modal>
    </Card>
  );
}

function AudienceSummary({ message }: { message: EventMessageRow }) {
  const { ticketTypeIds, checkIn } = message.audience;
  return (
    <FormattedMessage
      id="messages.audience"
      defaultMessage="{types, plural, =0 {every ticket type} one {# ticket type} other {# ticket types}}{door, select, checkedIn {, those let in} notCheckedIn {, those not let in yet} other {}}"
      values={{
        types: ticketTypeIds.length,
        door: checkIn === 'checked-in' ? 'checkedIn' : checkIn === 'not-checked-in' ? 'notCheckedIn' : 'any',
      }}
    />
  );
}
