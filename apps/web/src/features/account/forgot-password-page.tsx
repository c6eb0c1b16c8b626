import { AnchorLink } from '../../lib/links';
import { Alert, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { AccountEmail } from '@admit/shared/account';
import { z } from 'zod';
import { authClient } from '../../lib/auth-client';
import { validateWith } from '../../lib/form';
import { usePageTitle } from '../../lib/page-title';
import { authErrorMessage } from './auth-error';
import { DevOutboxHint } from './dev-outbox';

const ForgotPasswordForm = z.object({ email: AccountEmail });

export function ForgotPasswordPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'pageTitle.forgotPassword', defaultMessage: 'Forgot your password' }));
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({ initialValues: { email: '' }, validate: validateWith(ForgotPasswordForm, intl) });

  const submit = form.onSubmit(async (values) => {
    setSubmitting(true);
    setError(null);
    const email = values.email.trim();
    const result = await authClient.requestPasswordReset({ email, redirectTo: '/reset-password' });
    setSubmitting(false);
    // The server answers the same for every address; only a rate limit or an outage is an error here.
    if (result.error) setError(authErrorMessage(intl, result.error));
    else setSentTo(email);
  });

  if (sentTo) {
    return (
      <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} maw={480} mx="auto" mt={{ base: 'sm', sm: 'xl' }}>
        <Stack>
          <Title order={1} size="h2">
            <FormattedMessage id="forgotPassword.sent.title" defaultMessage="Check your inbox" />
          </Title>
          <Text>
            <FormattedMessage
              id="forgotPassword.sent.body"
              defaultMessage="If an account uses {email}, we have sent a link to it. Open it within an hour to choose a new password."
              values={{ email: <strong>{sentTo}</strong> }}
            />
          </Text>
          <DevOutboxHint />
          <Text size="sm">
            <AnchorLink to="/sign-in">
              <FormattedMessage id="forgotPassword.backToSignIn" defaultMessage="Back to sign-in" />
            </AnchorLink>
          </Text>
        </Stack>
      </Paper>
    );
  }

  return (
    <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} maw={440} mx="auto" mt={{ base: 'sm', sm: 'xl' }}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={1} size="h2">
            <FormattedMessage id="forgotPassword.title" defaultMessage="Forgot your password?" />
          </Title>
          <Text>
            <FormattedMessage
              id="forgotPassword.intro"
              defaultMessage="Enter the email address of your account and we will send you a link to choose a new password."
            />
          </Text>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <TextInput
            label={intl.formatMessage({ id: 'forgotPassword.email', defaultMessage: 'Email' })}
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <Button type="submit" loading={submitting} fullWidth>
            <FormattedMessage id="forgotPassword.submit" defaultMessage="Send reset link" />
          </Button>
          <Text size="sm" ta="center">
            <AnchorLink to="/sign-in">
              <FormattedMessage id="forgotPassword.backToSignIn" defaultMessage="Back to sign-in" />
            </AnchorLink>
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}
