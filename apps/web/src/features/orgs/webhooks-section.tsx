import {
  createWebhook,
  deleteWebhook,
  pingWebhook,
  resendWebhook,
  rotateWebhookSecret,
  updateWebhook,
  webhookDeliveries,
  webhookEndpoints,
  webhookEventTypes,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  type WebhookEventType,
} from '@admit/shared/webhooks';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  CopyButton,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';
import { useLiveQuery } from '../../lib/live';
import { ErrorState } from '../../lib/page-state';
import { ScrollTable } from '../../lib/scroll-table';

// An organization's webhooks, for its admins: add one (its secret shown once), watch each one's
// deliveries, send a test ping, send one again, rotate the secret, turn it off or on, delete it.
// The server decides who may (modules/webhooks); the signing and retries are its own (decision 0063).

const statusMessages = defineMessages({
  pending: { id: 'webhooks.delivery.pending', defaultMessage: 'Waiting' },
  delivered: { id: 'webhooks.delivery.delivered', defaultMessage: 'Delivered' },
  failed: { id: 'webhooks.delivery.failed', defaultMessage: 'Failed' },
});
/** An address to show the form's shape: not text to translate. */
const exampleUrl = 'https://example.com/admit-webhooks';
const statusColors = { pending: 'yellow', delivered: 'green', failed: 'red' } as const;

function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <Alert color="blue" role="status" title={<FormattedMessage id="webhooks.secret.title" defaultMessage="The signing secret" />}>
      <Stack gap="xs">
        <Text size="sm">
          <FormattedMessage
            id="webhooks.secret.once"
            defaultMessage="Copy it now: it is not shown again. Your receiver checks each webhook's signature with it."
          />
        </Text>
        <Code block style={{ wordBreak: 'break-all' }}>
          {secret}
        </Code>
        <Group>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                {copied ? (
                  <FormattedMessage id="webhooks.secret.copied" defaultMessage="Copied" />
                ) : (
                  <FormattedMessage id="webhooks.secret.copy" defaultMessage="Copy the secret" />
                )}
              </Button>
            )}
          </CopyButton>
          <Button size="xs" variant="default" onClick={onDone}>
            <FormattedMessage id="webhooks.secret.done" defaultMessage="I have saved it" />
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function AddWebhookForm({ organizationId, onSecret }: { organizationId: string; onSecret: (secret: string) => void }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const form = useForm<{ organizationId: string; url: string; eventTypes: WebhookEventType[] }>({
    initialValues: { organizationId, url: '', eventTypes: ['order.created', 'order.paid'] },
    validate: validateWith(createWebhook.input, intl),
  });
  const mutation = useMutation({
    mutationFn: (values: typeof form.values) => callFunction(createWebhook, values),
    onSuccess: (result) => {
      form.setFieldValue('url', '');
      onSecret(result.secret);
    },
  });
  return (
    <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate>
      <Stack>
        <Title order={3} size="h5">
          <FormattedMessage id="webhooks.add.title" defaultMessage="Add a webhook" />
        </Title>
        <TextInput
          type="url"
          label={intl.formatMessage({ id: 'webhooks.add.url', defaultMessage: 'Address that receives the webhooks' })}
          placeholder={exampleUrl}
          required
          {...form.getInputProps('url')}
        />
        <Checkbox.Group
          label={intl.formatMessage({ id: 'webhooks.add.types', defaultMessage: 'What it is told of' })}
          required
          {...form.getInputProps('eventTypes')}
        >
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
            {webhookEventTypes.map((type) => (
              <Checkbox key={type} value={type} label={<Code>{type}</Code>} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        {mutation.error && (
          <Alert color="red" role="alert">
            {errorMessage(mutation.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={mutation.isPending}>
            <FormattedMessage id="webhooks.add.submit" defaultMessage="Add webhook" />
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const { rows, error } = useLiveQuery(webhookDeliveries, { endpointId });
  const resend = useMutation({ mutationFn: (deliveryId: string) => callFunction(resendWebhook, { deliveryId }) });
  const label = intl.formatMessage({ id: 'webhooks.log.table', defaultMessage: 'Latest deliveries' });
  if (error) return <ErrorState error={error} />;
  if (!rows) return null;
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        <FormattedMessage id="webhooks.log.empty" defaultMessage="Nothing sent yet." />
      </Text>
    );
  const when = (at: string) => intl.formatDate(at, { dateStyle: 'medium', timeStyle: 'medium' });
  return (
    <Stack gap="xs">
      {resend.error && (
        <Alert color="red" role="alert">
          {errorMessage(resend.error)}
        </Alert>
      )}
      <ScrollTable label={label} minWidth={640}>
        <Table aria-label={label} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <FormattedMessage id="webhooks.log.when" defaultMessage="Written" />
              </Table.Th>
              <Table.Th>
                <FormattedMessage id="webhooks.log.type" defaultMessage="Event" />
              </Table.Th>
              <Table.Th>
                <FormattedMessage id="webhooks.log.status" defaultMessage="Status" />
              </Table.Th>
              <Table.Th>
                <FormattedMessage id="webhooks.log.answer" defaultMessage="Last answer" />
              </Table.Th>
              <Table.Th>
                <VisuallyHidden>
                  <FormattedMessage id="webhooks.log.actions" defaultMessage="Actions" />
                </VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row: WebhookDeliveryRow) => (
              <Table.Tr key={row.id}>
                <Table.Td>{when(row.createdAt)}</Table.Td>
                <Table.Td>
                  <Code>{row.type}</Code>
                </Table.Td>
                <Table.Td>
                  <Badge color={statusColors[row.status]} variant="light">
                    {intl.formatMessage(statusMessages[row.status])}
                  </Badge>
                  <Text size="xs" c="dimmed">
                    <FormattedMessage
                      id="webhooks.log.attempts"
                      defaultMessage="{count, plural, one {# try} other {# tries}}"
                      values={{ count: row.attempts }}
                    />
                  </Text>
                </Table.Td>
                <Table.Td>
                  {row.lastAttemptAt && (
                    <Text size="xs">
                      <FormattedMessage
                        id="webhooks.log.lastAnswer"
                        defaultMessage="{status, select, none {No answer} other {HTTP {status}}} at {at}"
                        values={{
                          status: row.responseStatus === null ? 'none' : String(row.responseStatus),
                          at: when(row.lastAttemptAt),
                        }}
                      />
                    </Text>
                  )}
                  {row.responseExcerpt && (
                    <Text size="xs" c="dimmed" lineClamp={2} style={{ wordBreak: 'break-all' }}>
                      {row.responseExcerpt}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="default"
                    loading={resend.isPending && resend.variables === row.id}
                    onClick={() => resend.mutate(row.id)}
                  >
                    <FormattedMessage id="webhooks.log.resend" defaultMessage="Send again" />
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
    </Stack>
  );
}

function EndpointCard({ endpoint, onSecret }: { endpoint: WebhookEndpointRow; onSecret: (secret: string) => void }) {
  const errorMessage = useErrorMessage();
  const [showLog, setShowLog] = useState(false);
  const ping = useMutation({ mutationFn: () => callFunction(pingWebhook, { endpointId: endpoint.id }) });
  const rotate = useMutation({
    mutationFn: () => callFunction(rotateWebhookSecret, { endpointId: endpoint.id }),
    onSuccess: (result) => onSecret(result.secret),
  });
  const toggle = useMutation({
    mutationFn: () => callFunction(updateWebhook, { endpointId: endpoint.id, enabled: !endpoint.enabled }),
  });
  const remove = useMutation({ mutationFn: () => callFunction(deleteWebhook, { endpointId: endpoint.id }) });
  const failure = ping.error ?? rotate.error ?? toggle.error ?? remove.error;
  return (
    <Card withBorder padding="md" component="li">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} style={{ wordBreak: 'break-all' }}>
            {endpoint.url}
          </Text>
          <Badge
            color={endpoint.enabled ? (endpoint.failingSince ? 'yellow' : 'green') : 'gray'}
            variant="light"
            style={{ flexShrink: 0 }}
          >
            <FormattedMessage
              id="webhooks.endpoint.status"
              defaultMessage="{state, select, failing {Failing} enabled {On} gone {Off: gone} failingOff {Off: kept failing} other {Off}}"
              values={{
                state: endpoint.enabled
                  ? endpoint.failingSince
                    ? 'failing'
                    : 'enabled'
                  : endpoint.disabledReason === 'gone'
                    ? 'gone'
                    : endpoint.disabledReason === 'failing'
                      ? 'failingOff'
                      : 'manual',
              }}
            />
          </Badge>
        </Group>
        <Group gap={4}>
          {endpoint.eventTypes.map((type) => (
            <Code key={type}>{type}</Code>
          ))}
        </Group>
        {failure && (
          <Alert color="red" role="alert">
            {errorMessage(failure)}
          </Alert>
        )}
        {ping.isSuccess && (
          <Text size="sm" c="green" role="status">
            <FormattedMessage id="webhooks.endpoint.pinged" defaultMessage="Test ping sent: see the deliveries." />
          </Text>
        )}
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={() => setShowLog((shown) => !shown)} aria-expanded={showLog}>
            <FormattedMessage id="webhooks.endpoint.log" defaultMessage="Deliveries" />
          </Button>
          <Button size="xs" variant="default" loading={ping.isPending} onClick={() => ping.mutate()}>
            <FormattedMessage id="webhooks.endpoint.ping" defaultMessage="Send a test ping" />
          </Button>
          <Button size="xs" variant="default" loading={rotate.isPending} onClick={() => rotate.mutate()}>
            <FormattedMessage id="webhooks.endpoint.rotate" defaultMessage="New secret" />
          </Button>
          <Button size="xs" variant="default" loading={toggle.isPending} onClick={() => toggle.mutate()}>
            {endpoint.enabled ? (
              <FormattedMessage id="webhooks.endpoint.disable" defaultMessage="Turn off" />
            ) : (
              <FormattedMessage id="webhooks.endpoint.enable" defaultMessage="Turn on" />
            )}
          </Button>
          <Button size="xs" color="red" variant="subtle" loading={remove.isPending} onClick={() => remove.mutate()}>
            <FormattedMessage id="webhooks.endpoint.delete" defaultMessage="Delete" />
          </Button>
        </Group>
        {endpoint.previousSecretUntil && (
          <Text size="xs" c="dimmed">
            <FormattedMessage
              id="webhooks.endpoint.overlap"
              defaultMessage="The previous secret also signs until {until}."
              values={{ until: new Date(endpoint.previousSecretUntil) }}
            />
          </Text>
        )}
        {showLog && <DeliveryLog endpointId={endpoint.id} />}
      </Stack>
    </Card>
  );
}

export function WebhooksSection({ organizationId }: { organizationId: string }) {
  const { rows, error } = useLiveQuery(webhookEndpoints, { organizationId });
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="webhooks-title">
      <Stack>
        <Title order={2} size="h4" id="webhooks-title">
          <FormattedMessage id="webhooks.title" defaultMessage="Webhooks" />
        </Title>
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="webhooks.intro"
            defaultMessage="Admit tells your own systems what happens to orders, tickets and events, signed in the Standard Webhooks format, and tries again for three days when they do not answer."
          />
        </Text>
        {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
        {error && <ErrorState error={error} />}
        {rows && rows.length > 0 && (
          <Stack component="ul" gap="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {rows.map((endpoint) => (
              <EndpointCard key={endpoint.id} endpoint={endpoint} onSecret={setSecret} />
            ))}
          </Stack>
        )}
        <AddWebhookForm organizationId={organizationId} onSecret={setSecret} />
      </Stack>
    </Card>
  );
}
