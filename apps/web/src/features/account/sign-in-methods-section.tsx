import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { authClient } from '../../lib/auth-client';
import { useSession } from '../../lib/session';
import { ErrorState, NeedsNetwork, PageLoader } from '../../lib/page-state';
import { authErrorMessage } from './auth-error';
import { useFederatedProviders } from './federated-sign-in';

const accountsKey = ['account', 'sign-in-methods'];

interface LinkedAccount {
  id: string;
  providerId: string;
  accountId: string;
}

function useLinkedAccounts() {
  return useQuery({
    queryKey: accountsKey,
    queryFn: async (): Promise<LinkedAccount[]> => {
      const result = await authClient.listAccounts();
      if (result.error) throw new Error(result.error.message ?? 'Could not list sign-in methods');
      return result.data;
    },
  });
}

/** The person-facing name of a linked method: Better Auth's provider id, or the configured provider's name. */
function methodName(intl: IntlShape, providerId: string, providers: { id: string; name: string }[]): string {
  switch (providerId) {
    case 'credential':
      return intl.formatMessage({ id: 'account.methods.password', defaultMessage: 'Email and password' });
    case 'magic-link':
      return intl.formatMessage({ id: 'account.methods.emailLink', defaultMessage: 'Email link' });
    case 'phone-number':
      return intl.formatMessage({ id: 'account.methods.phone', defaultMessage: 'Phone number' });
    default:
      return providers.find((provider) => provider.id === providerId)?.name ?? providerId;
  }
}

export function SignInMethodsSection() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const accounts = useLinkedAccounts();
  const providers = useFederatedProviders();
  const user = useSession().data?.user;
  // Not accounts of their own: an email link reaches any verified address (phone sign-ups have a
  // reserved one that cannot receive mail), a code any verified phone number.
  const emailLinkTo = user?.emailVerified && !user.email.endsWith('.invalid') ? user.email : null;
  const phone = user?.phoneNumberVerified ? user.phoneNumber : null;
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const linked = accounts.data ?? [];
  const linkable = providers.filter((provider) => !linked.some((account) => account.providerId === provider.id));

  async function unlink(account: LinkedAccount) {
    setBusy(account.id);
    setError(null);
    const result = await authClient.unlinkAccount({ accountId: account.id });
    setBusy(null);
    if (result.error)
      setError(
        result.error.code === 'FAILED_TO_UNLINK_LAST_ACCOUNT'
          ? intl.formatMessage({
              id: 'account.methods.lastOne',
              defaultMessage: 'This is your only way to sign in, so it cannot be removed.',
            })
          : authErrorMessage(intl, result.error),
      );
    await queryClient.invalidateQueries({ queryKey: accountsKey });
  }

  async function link(providerId: string) {
    setBusy(providerId);
    setError(null);
    // The browser leaves for the provider and comes back to /account with the method linked.
    const result = await authClient.linkSocial({ provider: providerId, callbackURL: '/account' });
    if (result.error) {
      setBusy(null);
      setError(authErrorMessage(intl, result.error));
    }
  }

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }}>
      <Stack>
        <Stack gap={4}>
          <Title order={2} size="h3">
            <FormattedMessage id="account.methods.title" defaultMessage="Sign-in methods" />
          </Title>
          <Text size="sm" c="dimmed">
            <FormattedMessage
              id="account.methods.intro"
              defaultMessage="The ways you can sign in to Admit. You always keep at least one."
            />
          </Text>
        </Stack>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {accounts.isPending ? (
          accounts.fetchStatus === 'paused' ? (
            <NeedsNetwork />
          ) : (
            <PageLoader />
          )
        ) : accounts.isError ? (
          <ErrorState error={accounts.error} />
        ) : (
          <Stack gap="sm">
            {linked.map((account) => {
              const name = methodName(intl, account.providerId, providers);
              return (
                <Paper key={account.id} withBorder p="sm">
                  <Group justify="space-between" wrap="wrap" gap="sm">
                    <Text fw={600}>{name}</Text>
                    {linked.length > 1 && (
                      <Button
                        variant="subtle"
                        color="red"
                        loading={busy === account.id}
                        onClick={() => void unlink(account)}
                        aria-label={intl.formatMessage(
                          { id: 'account.methods.unlinkLabel', defaultMessage: 'Remove {method}' },
                          { method: name },
                        )}
                      >
                        <FormattedMessage id="account.methods.unlink" defaultMessage="Remove" />
                      </Button>
                    )}
                  </Group>
                </Paper>
              );
            })}
            {emailLinkTo && (
              <Paper withBorder p="sm">
                <Text fw={600}>{methodName(intl, 'magic-link', providers)}</Text>
                <Text size="sm" c="dimmed">
                  <FormattedMessage
                    id="account.methods.emailLinkTo"
                    defaultMessage="A link sent to {email}"
                    values={{ email: emailLinkTo }}
                  />
                </Text>
              </Paper>
            )}
            {phone && (
              <Paper withBorder p="sm">
                <Text fw={600}>{methodName(intl, 'phone-number', providers)}</Text>
                <Text size="sm" c="dimmed">
                  <FormattedMessage id="account.methods.phoneTo" defaultMessage="A code sent to {phone}" values={{ phone }} />
                </Text>
              </Paper>
            )}
          </Stack>
        )}
        {linkable.length > 0 && (
          <Group gap="sm">
            {linkable.map((provider) => (
              <Button key={provider.id} variant="default" loading={busy === provider.id} onClick={() => void link(provider.id)}>
                <FormattedMessage
                  id="account.methods.link"
                  defaultMessage="Link {provider}"
                  values={{ provider: provider.name }}
                />
              </Button>
            ))}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
