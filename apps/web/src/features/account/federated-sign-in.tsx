import { SignInMethods } from '@admit/shared/sign-in';
import { Alert, Button, Divider, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { authClient } from '../../lib/auth-client';
import { authErrorMessage } from './auth-error';

const messages = defineMessages({
  cancelled: { id: 'signIn.federated.error.cancelled', defaultMessage: 'Signing in with the provider was cancelled.' },
  noEmail: {
    id: 'signIn.federated.error.noEmail',
    defaultMessage: 'The provider did not share a verified email address, which Admit needs to sign you in.',
  },
  notLinked: {
    id: 'signIn.federated.error.notLinked',
    defaultMessage:
      'We could not sign you in with that provider. If you already have an Admit account, sign in another way and link the provider on your account page.',
  },
  generic: {
    id: 'signIn.federated.error.generic',
    defaultMessage: 'Signing in with the provider did not work. Please try again.',
  },
});

/** The providers this server offers (GET /api/sign-in-methods); none until it answers. */
export function useFederatedProviders() {
  return (
    useQuery({
      queryKey: ['sign-in-methods'],
      queryFn: async () => {
        const response = await fetch('/api/sign-in-methods');
        if (!response.ok) throw new Error(`GET /api/sign-in-methods: ${response.status}`);
        return SignInMethods.parse(await response.json());
      },
      staleTime: Infinity,
    }).data?.providers ?? []
  );
}

/** A sentence for the `?error=` Better Auth puts on the URL when a provider's sign-in fails. */
function federatedErrorMessage(intl: IntlShape, code: string): string {
  switch (code) {
    case 'access_denied':
      return intl.formatMessage(messages.cancelled);
    case 'email_not_found':
    case 'email_not_verified':
    case 'unable_to_get_user_info':
      return intl.formatMessage(messages.noEmail);
    case 'account_not_linked':
    case 'unable_to_link_account':
    case 'email_does_not_match':
    case 'account_already_linked_to_different_user':
      return intl.formatMessage(messages.notLinked);
    default:
      return intl.formatMessage(messages.generic);
  }
}

/** The error a provider's sign-in came back with, read once from the address (`/sign-in?error=...`). */
export function FederatedSignInError() {
  const intl = useIntl();
  const [code] = useState(() => new URLSearchParams(window.location.search).get('error'));
  if (!code) return null;
  return (
    <Alert color="red" role="alert">
      {federatedErrorMessage(intl, code)}
    </Alert>
  );
}

/** "Continue with <provider>" for each federated provider configured on the server; nothing when none is. */
export function FederatedSignInButtons({ redirectTo }: { redirectTo: string }) {
  const intl = useIntl();
  const providers = useFederatedProviders();
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (providers.length === 0) return null;

  async function continueWith(provider: string) {
    setPending(provider);
    setError(null);
    // Better Auth answers with the provider's address and the browser leaves for it; a failure
    // there comes back to the sign-in page as ?error=.
    const result = await authClient.signIn.social({ provider, callbackURL: redirectTo, errorCallbackURL: '/sign-in' });
    if (result.error) {
      setPending(null);
      setError(authErrorMessage(intl, result.error));
    }
  }

  return (
    <Stack gap="sm">
      <Divider label={intl.formatMessage({ id: 'signIn.federated.or', defaultMessage: 'or' })} labelPosition="center" />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {providers.map((provider) => (
        <Button
          key={provider.id}
          variant="default"
          fullWidth
          loading={pending === provider.id}
          disabled={pending !== null && pending !== provider.id}
          onClick={() => void continueWith(provider.id)}
        >
          <FormattedMessage
            id="signIn.federated.continueWith"
            defaultMessage="Continue with {provider}"
            values={{ provider: provider.name }}
          />
        </Button>
      ))}
    </Stack>
  );
}
