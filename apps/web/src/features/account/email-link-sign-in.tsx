import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { AccountEmail } from '@admit/shared/account';
import { z } from 'zod';
import { authClient } from '../../lib/auth-client';
import { validateWith } from '../../lib/form';
import { authErrorMessage } from './auth-error';
import { DevOutboxHint } from './dev-outbox';

const EmailLinkForm = z.object({ email: AccountEmail });

/** Passwordless sign-in: a link by email that signs in (and creates the account) once, within 15 minutes. */
export function EmailLinkSignIn({ redirectTo }: { redirectTo: string }) {
  const intl = useIntl();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({ initialValues: { email: '' }, validate: validateWith(EmailLinkForm, intl) });

  const submit = form.onSubmit(async (values) => {
    setSubmitting(true);
    setError(null);
    const email = values.email.trim();
    const result = await authClient.signIn.magicLink({
      email,
      callbackURL: redirectTo,
      errorCallbackURL: `/sign-in?method=email-link&redirect=${encodeURIComponent(redirectTo)}`,
    });
    setSubmitting(false);
    if (result.error) {
      setError(authErrorMessage(intl, result.error));
      return;
    }
    setSentTo(email);
  });

  if (sentTo) {
    return (
      <Stack>
        <Title order={2} size="h3">
          <FormattedMessage id="signIn.emailLink.sent.title" defaultMessage="Check your inbox" />
        </Title>
        <Text role="status">
          <FormattedMessage
            id="signIn.emailLink.sent.body"
            defaultMessage="If {email} can receive email, a sign-in link is on its way. Open it within 15 minutes; it works once."
            values={{ email: sentTo }}
          />
        </Text>
        <DevOutboxHint />
        <Button variant="subtle" onClick={() => setSentTo(null)}>
          <FormattedMessage id="signIn.emailLink.again" defaultMessage="Use another email" />
        </Button>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="signIn.emailLink.intro"
            defaultMessage="We email you a link that signs you in, no password needed. New here? The link creates your account."
          />
        </Text>
        <TextInput
          label={intl.formatMessage({ id: 'signIn.email', defaultMessage: 'Email' })}
          type="email"
          autoComplete="email"
          required
          {...form.getInputProps('email')}
        />
        <Button type="submit" loading={submitting} fullWidth>
          <FormattedMessage id="signIn.emailLink.submit" defaultMessage="Email me a sign-in link" />
        </Button>
      </Stack>
    </form>
  );
}
