import { deleteCode, eventCodes, type EventCodeRow } from '@admit/shared/codes';
import { managedTicketTypes, type ManagedTicketTypeRow } from '@admit/shared/event-changes';
import { exportPath } from '@admit/shared/csv';
import { managedEvent, type ManagedEventRow } from '@admit/shared/events';
import { Alert, Anchor, Button, Card, CopyButton, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { useErrorMessage } from '../../lib/error-message';
import { useLocale } from '../../lib/i18n';
import { BackLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { ScrollTable } from '../../lib/scroll-table';
import { CodeForm } from './code-form';
import { DiscountText } from '../../lib/discount-text';

/**
 * An event's codes (its admins): a new one, and every code with what it unlocks or takes off, how
 * many tickets were bought with it (live), its limits and window, a link that carries it, and changes.
 */
export function EventCodesPage({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const event = useLiveQuery(managedEvent, { eventId });
  const types = useLiveQuery(managedTicketTypes, { eventId });
  const found = event.rows?.[0];
  usePageTitle(
    found && intl.formatMessage({ id: 'codes.tabTitle', defaultMessage: 'Codes for {title}' }, { title: found.title }),
  );
  const error = event.error ?? types.error;
  return (
    <Stack gap="lg">
      <BackLink to="/manage/events/$eventId" params={{ eventId }}>
        <FormattedMessage id="codes.back" defaultMessage="Back to the event" />
      </BackLink>
      <Title order={1}>
        <FormattedMessage id="codes.title" defaultMessage="Discount and access codes" />
        {found && (
          <Text span display="block" fz="lg" c="dimmed" fw={400}>
            {found.title}
          </Text>
        )}
      </Title>
      <Text>
        <FormattedMessage
          id="codes.intro"
          defaultMessage="A discount code takes a percentage or an amount off its ticket types. An access code shows a hidden ticket type to the people who have it: press, crew, members. One code may do both. Give people the code, or a link that carries it."
        />
      </Text>
      {error && <ErrorState error={error} />}
      {!error && (!found || !types.rows) && <PageLoader />}
      {found && types.rows && (
        <>
          <Card withBorder padding="lg">
            <Stack gap="sm">
              <Title order={2} size="h4">
                <FormattedMessage id="codes.new" defaultMessage="New code" />
              </Title>
              <CodeForm
                eventId={eventId}
                currency={found.currency}
                types={types.rows}
                onDone={() => undefined}
                actions={(pending, count) => (
                  <Button type="submit" loading={pending} style={{ alignSelf: 'flex-start' }}>
                    <FormattedMessage
                      id="codes.createCount"
                      defaultMessage="{count, plural, one {Create code} other {Create # codes}}"
                      values={{ count }}
                    />
                  </Button>
                )}
              />
            </Stack>
          </Card>
          <CodeList event={found} types={types.rows} />
        </>
      )}
    </Stack>
  );
}

/** How many codes the list shows (codes.ofEvent's limit): more are in the CSV file. */
const codesShown = 1000;

function CodeList({ event, types }: { event: ManagedEventRow; types: readonly ManagedTicketTypeRow[] }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const codes = useLiveQuery(eventCodes, { eventId: event.id });
  const { locale } = useLocale();
  const [editing, setEditing] = useState<EventCodeRow | null>(null);
  const removal = useMutation({ mutationFn: (codeId: string) => callFunction(deleteCode, { eventId: event.id, codeId }) });
  const nameOf = (id: string) => types.find((type) => type.id === id)?.name ?? '—';
  const when = (local: string | null) => (local ? intl.formatDate(local, { dateStyle: 'medium', timeStyle: 'short' }) : null);
  const columns = {
    types: intl.formatMessage({ id: 'codes.col.types', defaultMessage: 'Ticket types' }),
    discount: intl.formatMessage({ id: 'codes.col.discount', defaultMessage: 'Discount' }),
    used: intl.formatMessage({ id: 'codes.col.used', defaultMessage: 'Tickets bought' }),
    window: intl.formatMessage({ id: 'codes.col.window', defaultMessage: 'Works' }),
  };

  if (codes.error) return <ErrorState error={codes.error} />;
  if (!codes.rows) return <PageLoader />;
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="baseline">
        <Title order={2} size="h4">
          <FormattedMessage id="codes.list" defaultMessage="Codes" />
        </Title>
        {codes.rows.length > 0 && (
          <Anchor href={exportPath(event.id, 'codes', { excel: false, locale })} download size="sm">
            <FormattedMessage id="codes.download" defaultMessage="Download all codes (CSV)" />
          </Anchor>
        )}
      </Group>
      {codes.rows.length === 0 && (
        <Text c="dimmed">
          <FormattedMessage id="codes.none" defaultMessage="No codes yet." />
        </Text>
      )}
      {codes.rows.length >= codesShown && (
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="codes.firstShown"
            defaultMessage="The first {count, number} codes are shown, in the order of their letters; the CSV file lists every one."
            values={{ count: codesShown }}
          />
        </Text>
      )}
      {removal.error && (
        <Alert color="red" role="alert">
          {errorMessage(removal.error)}
        </Alert>
      )}
      {codes.rows.length > 0 && (
        <ScrollTable label={intl.formatMessage({ id: 'codes.list', defaultMessage: 'Codes' })} minWidth={860} stacked>
          <Table verticalSpacing="sm" aria-label={intl.formatMessage({ id: 'codes.list', defaultMessage: 'Codes' })}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <FormattedMessage id="codes.col.code" defaultMessage="Code" />
                </Table.Th>
                <Table.Th>{columns.types}</Table.Th>
                <Table.Th>{columns.discount}</Table.Th>
                <Table.Th>{columns.used}</Table.Th>
                <Table.Th>{columns.window}</Table.Th>
                <Table.Th>
                  <FormattedMessage id="codes.col.actions" defaultMessage="Actions" />
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {codes.rows.map((code) => (
                <Table.Tr key={code.id}>
                  <Table.Td>
                    <Text ff="monospace" fw={600}>
                      {code.code}
                    </Text>
                  </Table.Td>
                  <Table.Td data-label={columns.types}>
                    {code.ticketTypeIds.length === 0 ? (
                      <FormattedMessage id="codes.allTypes" defaultMessage="Every visible type" />
                    ) : (
                      code.ticketTypeIds.map(nameOf).join(', ')
                    )}
                  </Table.Td>
                  <Table.Td data-label={columns.discount}>
                    <DiscountText discount={code.discount} currency={event.currency} />
                    {code.minQuantity > 1 && (
                      <Text size="xs" c="dimmed">
                        <FormattedMessage
                          id="codes.minQuantity"
                          defaultMessage="From {count, number} tickets in one order"
                          values={{ count: code.minQuantity }}
                        />
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label={columns.used}>
                    <FormattedMessage
                      id="codes.used"
                      defaultMessage="{used, number}{limit, select, none {} other { of {limit}}}"
                      values={{ used: code.used, limit: code.maxUses === null ? 'none' : intl.formatNumber(code.maxUses) }}
                    />
                    {code.maxPerBuyer !== null && (
                      <Text size="xs" c="dimmed">
                        <FormattedMessage
                          id="codes.perBuyer"
                          defaultMessage="At most {count, number} per buyer"
                          values={{ count: code.maxPerBuyer }}
                        />
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-label={columns.window}>
                    <FormattedMessage
                      id="codes.window"
                      defaultMessage="{from, select, none {} other {From {from}}}{both, select, yes {, } other {}}{until, select, none {} other {until {until}}}{always, select, yes {Always} other {}}"
                      values={{
                        from: when(code.validFromLocal) ?? 'none',
                        until: when(code.validUntilLocal) ?? 'none',
                        both: code.validFromLocal && code.validUntilLocal ? 'yes' : 'no',
                        always: !code.validFromLocal && !code.validUntilLocal ? 'yes' : 'no',
                      }}
                    />
                  </Table.Td>
                  <Table.Td data-action>
                    <Group gap={4} wrap="nowrap">
                      <CopyButton value={`${location.origin}/e/${event.slug}?code=${encodeURIComponent(code.code)}`}>
                        {({ copied, copy }) => (
                          <Button
                            variant="subtle"
                            size="compact-sm"
                            onClick={copy}
                            // The visible words first, as a voice command says them.
                            aria-label={
                              copied
                                ? undefined
                                : intl.formatMessage(
                                    { id: 'codes.copyLinkOf', defaultMessage: 'Copy link of {code}' },
                                    { code: code.code },
                                  )
                            }
                          >
                            {copied ? (
                              <FormattedMessage id="codes.copied" defaultMessage="Copied" />
                            ) : (
                              <FormattedMessage id="codes.copyLink" defaultMessage="Copy link" />
                            )}
                          </Button>
                        )}
                      </CopyButton>
                      <Button
                        variant="subtle"
                        size="compact-sm"
                        onClick={() => setEditing(code)}
                        aria-label={intl.formatMessage(
                          { id: 'codes.editOf', defaultMessage: 'Edit {code}' },
                          { code: code.code },
                        )}
                      >
                        <FormattedMessage id="codes.edit" defaultMessage="Edit" />
                      </Button>
                      {code.orders === 0 && (
                        <Button
                          variant="subtle"
                          color="red"
                          size="compact-sm"
                          loading={removal.isPending && removal.variables === code.id}
                          onClick={() => removal.mutate(code.id)}
                          aria-label={intl.formatMessage(
                            { id: 'codes.deleteOf', defaultMessage: 'Delete {code}' },
                            { code: code.code },
                          )}
                        >
                          <FormattedMessage id="codes.delete" defaultMessage="Delete" />
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing && intl.formatMessage({ id: 'codes.editTitle', defaultMessage: 'Edit {code}' }, { code: editing.code })}
        size="lg"
      >
        {editing && (
          <CodeForm
            eventId={event.id}
            currency={event.currency}
            types={types}
            code={editing}
            onDone={() => setEditing(null)}
            actions={(pending) => (
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setEditing(null)}>
                  <FormattedMessage id="codes.cancelEdit" defaultMessage="Keep as it is" />
                </Button>
                <Button type="submit" loading={pending}>
                  <FormattedMessage id="codes.save" defaultMessage="Save" />
                </Button>
              </Group>
            )}
          />
        )}
      </Modal>
    </Stack>
  );
}
