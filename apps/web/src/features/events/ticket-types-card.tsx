import {
  managedTicketTypes,
  removeTicketType,
  reorderTicketTypes,
  updateTicketType,
  type ManagedTicketTypeRow,
} from '@admit/shared/event-changes';
import { ActionIcon, Badge, Card, Group, Menu, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowDown, IconArrowUp, IconDots, IconEye, IconEyeOff, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { useErrorMessage } from '../../lib/error-message';
import { useLiveQuery } from '../../lib/live';
import { ScrollTable } from '../../lib/scroll-table';
import { formatMoney } from '../../lib/money';
import { EmptyState, ErrorState } from '../../lib/page-state';
import { AddTicketTypeForm, EditTicketTypeDialog } from './ticket-type-form';

type Change =
  | { kind: 'visibility'; type: ManagedTicketTypeRow }
  | { kind: 'move'; ids: string[] }
  | { kind: 'remove'; type: ManagedTicketTypeRow };

/** The event's ticket types for its admins, hidden ones too, each with what can be done to it. */
export function TicketTypesCard({ eventId, currency, editable }: { eventId: string; currency: string; editable: boolean }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const types = useLiveQuery(managedTicketTypes, { eventId });
  const [editing, setEditing] = useState<ManagedTicketTypeRow | null>(null);
  const columns = {
    price: intl.formatMessage({ id: 'editor.col.price', defaultMessage: 'Price' }),
    taken: intl.formatMessage({ id: 'editor.col.taken', defaultMessage: 'Sold / capacity' }),
    limit: intl.formatMessage({ id: 'editor.col.limit', defaultMessage: 'Per order' }),
  };
  const rows = types.rows ?? [];
  const change = useMutation({
    mutationFn: async (change: Change) => {
      if (change.kind === 'move') return callFunction(reorderTicketTypes, { eventId, ticketTypeIds: change.ids });
      if (change.kind === 'remove') return callFunction(removeTicketType, { ticketTypeId: change.type.id });
      const { type } = change;
      return callFunction(updateTicketType, {
        ticketTypeId: type.id,
        name: type.name,
        price: type.price,
        capacity: type.capacity,
        maxPerOrder: type.maxPerOrder,
        maxPerBuyer: type.maxPerBuyer,
        salesStartLocal: type.salesStartLocal,
        salesEndLocal: type.salesEndLocal,
        hidden: !type.hidden,
      });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const moved = (index: number, by: -1 | 1) => {
    const ids = rows.map((row) => row.id);
    [ids[index], ids[index + by]] = [ids[index + by]!, ids[index]!];
    return ids;
  };

  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Title order={2} size="h4">
          <FormattedMessage id="editor.ticketTypes" defaultMessage="Ticket types" />
        </Title>
        {types.error && <ErrorState error={types.error} />}
        {types.rows && rows.length === 0 && (
          <EmptyState title={intl.formatMessage({ id: 'editor.noTypes', defaultMessage: 'No ticket types yet' })}>
            <FormattedMessage id="editor.noTypes.body" defaultMessage="Add at least one before you publish." />
          </EmptyState>
        )}
        {rows.length > 0 && (
          <ScrollTable
            label={intl.formatMessage({ id: 'editor.ticketTypes', defaultMessage: 'Ticket types' })}
            minWidth={480}
            stacked
          >
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>
                    <FormattedMessage id="editor.col.name" defaultMessage="Name" />
                  </Table.Th>
                  <Table.Th ta="end">{columns.price}</Table.Th>
                  <Table.Th ta="end">{columns.taken}</Table.Th>
                  <Table.Th ta="end">{columns.limit}</Table.Th>
                  {editable && (
                    <Table.Th>
                      <VisuallyHidden>
                        <FormattedMessage id="editor.col.actions" defaultMessage="Actions" />
                      </VisuallyHidden>
                    </Table.Th>
                  )}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((type, index) => (
                  <Table.Tr key={type.id}>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Text span>{type.name}</Text>
                        {type.hidden && (
                          <Badge color="gray" variant="light" size="sm">
                            <FormattedMessage id="editor.type.hiddenBadge" defaultMessage="Hidden" />
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td ta="end" data-label={columns.price}>
                      {type.price === 0 ? (
                        <FormattedMessage id="picker.free" defaultMessage="Free" />
                      ) : (
                        formatMoney(intl.locale, type.price, currency)
                      )}
                    </Table.Td>
                    <Table.Td ta="end" data-label={columns.taken}>
                      <FormattedMessage
                        id="editor.type.taken"
                        defaultMessage="{sold, number} / {capacity, number}"
                        values={{ sold: type.sold + type.held, capacity: type.capacity }}
                      />
                    </Table.Td>
                    <Table.Td ta="end" data-label={columns.limit}>
                      {type.maxPerBuyer === null ? (
                        intl.formatNumber(type.maxPerOrder)
                      ) : (
                        <FormattedMessage
                          id="editor.type.limits"
                          defaultMessage="{perOrder, number} ({perBuyer, number} per buyer)"
                          values={{ perOrder: type.maxPerOrder, perBuyer: type.maxPerBuyer }}
                        />
                      )}
                    </Table.Td>
                    {editable && (
                      <Table.Td ta="end" data-action>
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon
                              variant="subtle"
                              color="gray"
                              loading={change.isPending && change.variables?.kind !== 'move'}
                              aria-label={intl.formatMessage(
                                { id: 'editor.type.actions', defaultMessage: 'Change “{name}”' },
                                { name: type.name },
                              )}
                            >
                              <IconDots size={18} aria-hidden />
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item leftSection={<IconPencil size={16} aria-hidden />} onClick={() => setEditing(type)}>
                              <FormattedMessage id="editor.type.edit" defaultMessage="Edit" />
                            </Menu.Item>
                            <Menu.Item
                              leftSection={type.hidden ? <IconEye size={16} aria-hidden /> : <IconEyeOff size={16} aria-hidden />}
                              onClick={() => change.mutate({ kind: 'visibility', type })}
                            >
                              {type.hidden ? (
                                <FormattedMessage id="editor.type.show" defaultMessage="Show to buyers" />
                              ) : (
                                <FormattedMessage id="editor.type.hide" defaultMessage="Hide from buyers" />
                              )}
                            </Menu.Item>
                            <Menu.Item
                              leftSection={<IconArrowUp size={16} aria-hidden />}
                              disabled={index === 0}
                              onClick={() => change.mutate({ kind: 'move', ids: moved(index, -1) })}
                            >
                              <FormattedMessage id="editor.type.up" defaultMessage="Move up" />
                            </Menu.Item>
                            <Menu.Item
                              leftSection={<IconArrowDown size={16} aria-hidden />}
                              disabled={index === rows.length - 1}
                              onClick={() => change.mutate({ kind: 'move', ids: moved(index, 1) })}
                            >
                              <FormattedMessage id="editor.type.down" defaultMessage="Move down" />
                            </Menu.Item>
                            {type.sold + type.held === 0 && (
                              <Menu.Item
                                color="red"
                                leftSection={<IconTrash size={16} aria-hidden />}
                                onClick={() => change.mutate({ kind: 'remove', type })}
                              >
                                <FormattedMessage id="editor.type.remove" defaultMessage="Remove" />
                              </Menu.Item>
                            )}
                          </Menu.Dropdown>
                        </Menu>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        )}
        {editable && <AddTicketTypeForm eventId={eventId} currency={currency} />}
      </Stack>
      {editing && <EditTicketTypeDialog type={editing} currency={currency} onClose={() => setEditing(null)} />}
    </Card>
  );
}
