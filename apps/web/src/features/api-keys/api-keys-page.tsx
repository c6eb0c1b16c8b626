import { createApiKey, orgApiKeys, revokeApiKey, type ApiKeyRow, type ApiScope } from '@admit/shared/api-keys';
import { myOrgs } from '@admit/shared/orgs';
import {
  Alert,
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Card,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';
import { AnchorLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { EmptyState, ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { ScrollTable } from '../../lib/scroll-table';

// An organization's keys for the REST API (/api/v1): its admins make them, see them and revoke
// them here. A key is shown once, when it is made; the server keeps only its hash (decision 0062).

const scopeNames = defineMessages({
  read: { id: 'apiKeys.scope.read', defaultMessage: 'Read' },
  write: { id: 'apiKeys.scope.write', defaultMessage: 'Write' },
  door: { id: 'apiKeys.scope.door', defaultMessage: 'Door' },
});
const scopeHelp = defineMessages({
  read: { id: 'apiKeys.scope.read.help', defaultMessage: 'Events, orders, tickets, attendees, payments, codes and questions' },
  write: { id: 'apiKeys.scope.write.help', defaultMessage: 'Check tickets in from another scanner' },
  door: {
    id: 'apiKeys.scope.door.help',
    defaultMessage: 'Events and check-ins only, to scan and follow the door: no email addresses, no amounts',
  },
});
const scopes: ApiScope[] = ['read', 'write', 'door'];

function CreateKeyForm({ organizationId, onCreated }: { organizationId: string; onCreated: (key: string) => void }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const form = useForm<{ organizationId: string; name: string; scopes: ApiScope[] }>({
    initialValues: { organizationId, name: '', scopes: ['read'] },
    validate: validateWith(createApiKey.input, intl),
  });
  const mutation = useMutation({
    mutationFn: (values: typeof form.values) => callFunction(createApiKey, values),
    onSuccess: (result) => {
      form.setFieldValue('name', '');
      onCreated(result.key);
    },
  });
  return (
    <Card withBorder padding="lg">
      <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate>
        <Stack>
          <Title order={2} size="h4">
            <FormattedMessage id="apiKeys.create.title" defaultMessage="Make a key" />
          </Title>
          <TextInput
            label={intl.formatMessage({ id: 'apiKeys.name', defaultMessage: 'Name' })}
            description={intl.formatMessage({
              id: 'apiKeys.name.help',
              defaultMessage: 'What uses it, so that you know which to revoke, e.g. Accounting export',
            })}
            maxLength={80}
            {...form.getInputProps('name')}
          />
          <Checkbox.Group
            label={intl.formatMessage({ id: 'apiKeys.scopes', defaultMessage: 'What it may do' })}
            {...form.getInputProps('scopes')}
          >
            <Stack gap="xs" mt="xs">
              {scopes.map((scope) => (
                <Checkbox
                  key={scope}
                  value={scope}
                  label={intl.formatMessage(scopeNames[scope])}
                  description={intl.formatMessage(scopeHelp[scope])}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          {mutation.error && (
            <Alert color="red" role="alert">
              {errorMessage(mutation.error)}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={mutation.isPending}>
              <FormattedMessage id="apiKeys.create.submit" defaultMessage="Make the key" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** The key just made, shown this once. */
function NewKeyModal({ apiKey, onClose }: { apiKey: string | null; onClose: () => void }) {
  const intl = useIntl();
  return (
    <Modal
      opened={apiKey !== null}
      onClose={onClose}
      title={intl.formatMessage({ id: 'apiKeys.new.title', defaultMessage: 'Your new key' })}
    >
      <Stack>
        <Alert color="yellow">
          <FormattedMessage
            id="apiKeys.new.once"
            defaultMessage="Copy it now and keep it somewhere safe: it is shown this once, and Admit keeps no copy it could show again."
          />
        </Alert>
        <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="new-api-key">
          {apiKey}
        </Code>
        <Group justify="flex-end">
          <CopyButton value={apiKey ?? ''}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy}>
                {copied ? (
                  <FormattedMessage id="apiKeys.new.copied" defaultMessage="Copied" />
                ) : (
                  <FormattedMessage id="apiKeys.new.copy" defaultMessage="Copy the key" />
                )}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>
            <FormattedMessage id="apiKeys.new.done" defaultMessage="Done" />
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function ApiKeysPage({ organizationId }: { organizationId: string }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const orgs = useLiveQuery(myOrgs, {});
  const org = orgs.rows?.find((row) => row.id === organizationId);
  usePageTitle(intl.formatMessage({ id: 'pageTitle.apiKeys', defaultMessage: 'API keys of {name}' }, { name: org?.name ?? '' }));
  const { rows, isLoading, error } = useLiveQuery(orgApiKeys, { organizationId });
  const [newKey, setNewKey] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyRow | null>(null);
  const revoke = useMutation({
    mutationFn: (apiKeyId: string) => callFunction(revokeApiKey, { organizationId, apiKeyId }),
    onSuccess: () => setRevoking(null),
  });
  const when = (at: string) => intl.formatDate(at, { dateStyle: 'medium', timeStyle: 'short' });
  const columns = {
    prefix: intl.formatMessage({ id: 'apiKeys.column.prefix', defaultMessage: 'Starts with' }),
    scopes: intl.formatMessage({ id: 'apiKeys.column.scopes', defaultMessage: 'May' }),
    created: intl.formatMessage({ id: 'apiKeys.column.created', defaultMessage: 'Made' }),
    lastUsed: intl.formatMessage({ id: 'apiKeys.column.lastUsed', defaultMessage: 'Last used' }),
  };
  return (
    <Stack gap="lg">
      <Breadcrumbs>
        <AnchorLink to="/manage">
          <FormattedMessage id="apiKeys.breadcrumb.orgs" defaultMessage="Organizations" />
        </AnchorLink>
        <AnchorLink to="/manage/orgs/$organizationId" params={{ organizationId }}>
          {org?.name}
        </AnchorLink>
        <Text>
          <FormattedMessage id="apiKeys.breadcrumb" defaultMessage="API keys" />
        </Text>
      </Breadcrumbs>
      <Title order={1}>
        <FormattedMessage id="apiKeys.title" defaultMessage="API keys" />
      </Title>
      <Text>
        <FormattedMessage
          id="apiKeys.intro"
          defaultMessage="A key lets a program of yours read this organization's events, orders and attendees, or check tickets in, through Admit's API. <docs>Read the API's documentation</docs>."
          values={{
            docs: (chunks) => (
              <Anchor href="/api/docs" target="_blank" rel="noopener">
                {chunks}
              </Anchor>
            ),
          }}
        />
      </Text>
      {error && <ErrorState error={error} />}
      {isLoading && !error && <PageLoader />}
      {rows && rows.length === 0 && (
        <EmptyState title={intl.formatMessage({ id: 'apiKeys.empty.title', defaultMessage: 'No keys yet' })}>
          <FormattedMessage id="apiKeys.empty.body" defaultMessage="Make one below for each program that uses the API." />
        </EmptyState>
      )}
      {rows && rows.length > 0 && (
        <ScrollTable label={intl.formatMessage({ id: 'apiKeys.list', defaultMessage: 'Keys' })} minWidth={760} stacked>
          <Table verticalSpacing="sm" aria-label={intl.formatMessage({ id: 'apiKeys.list', defaultMessage: 'Keys' })}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <FormattedMessage id="apiKeys.column.name" defaultMessage="Name" />
                </Table.Th>
                <Table.Th>{columns.prefix}</Table.Th>
                <Table.Th>{columns.scopes}</Table.Th>
                <Table.Th>{columns.created}</Table.Th>
                <Table.Th>{columns.lastUsed}</Table.Th>
                <Table.Th>
                  <FormattedMessage id="apiKeys.column.actions" defaultMessage="Actions" />
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {row.name}
                    </Text>
                  </Table.Td>
                  <Table.Td data-label={columns.prefix}>
                    <Code>{row.prefix}</Code>
                  </Table.Td>
                  <Table.Td data-label={columns.scopes}>
                    <Group gap={4}>
                      {row.scopes.map((scope) => (
                        <Badge key={scope} variant="light">
                          {intl.formatMessage(scopeNames[scope])}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td data-label={columns.created}>
                    <time dateTime={row.createdAt}>{when(row.createdAt)}</time>
                  </Table.Td>
                  <Table.Td data-label={columns.lastUsed}>
                    {row.lastUsedAt ? (
                      <time dateTime={row.lastUsedAt}>{when(row.lastUsedAt)}</time>
                    ) : (
                      <FormattedMessage id="apiKeys.neverUsed" defaultMessage="Never" />
                    )}
                  </Table.Td>
                  <Table.Td data-action>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      onClick={() => setRevoking(row)}
                      aria-label={intl.formatMessage(
                        { id: 'apiKeys.revokeWho', defaultMessage: 'Revoke {name}' },
                        { name: row.name },
                      )}
                    >
                      <FormattedMessage id="apiKeys.revoke" defaultMessage="Revoke" />
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      <CreateKeyForm organizationId={organizationId} onCreated={setNewKey} />
      <NewKeyModal apiKey={newKey} onClose={() => setNewKey(null)} />
      <Modal
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={intl.formatMessage({ id: 'apiKeys.revoke.title', defaultMessage: 'Revoke this key?' })}
      >
        <Stack>
          <Text>
            <FormattedMessage
              id="apiKeys.revoke.body"
              defaultMessage="Programs using {name} are refused from now on. This cannot be undone: make a new key if you need one."
              values={{ name: revoking?.name ?? '' }}
            />
          </Text>
          {revoke.error && (
            <Alert color="red" role="alert">
              {errorMessage(revoke.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(null)}>
              <FormattedMessage id="apiKeys.revoke.cancel" defaultMessage="Cancel" />
            </Button>
            <Button color="red" loading={revoke.isPending} onClick={() => revoking && revoke.mutate(revoking.id)}>
              <FormattedMessage id="apiKeys.revoke.confirm" defaultMessage="Revoke the key" />
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
