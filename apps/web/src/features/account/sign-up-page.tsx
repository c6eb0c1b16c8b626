import { AnchorLink } from '../../lib/links';
import { Alert, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { AccountEmail, accountLimits, NewPassword, PersonName } from '@admit/shared/account';
import { z } from 'zod';
import { authClient } from '../../lib/auth-client';
import { validateWith } from '../../lib/form';
import { usePageTitle } from '../../lib/page-title';
import { authErrorMessage, passwordRuleMessage } from './auth-error';
import { FederatedSignInButtons } from './federated-sign-in';
import { DevOutboxHint } from './dev-outbox';

const SignUpForm = z.object({ name: PersonName, email: AccountEmail, password: NewPassword });

export function SignUpPage({ redirectTo }: { redirectTo: string }) {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'pageTitle.signUp', defaultMessage: 'Sign up' }));
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({ initialValues: { name: '', email: '', password: '' }, validate: validateWith(SignUpForm, intl) });

  const submit = form.onSubmit(async (values) => {
    setSubmitting(true);
    setError(null);
    const email = values.email.trim();
    const result = await authClient.signUp.email({
      name: values.name.trim(),
      email,
      password: values.password,
      callbackURL: redirectTo,
    });
    setSubmitting(false);
    if (result.error) setError(authErrorMessage(intl, result.error));
    else setSentTo(email);
  });

  if (sentTo) {
    return (
      <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} maw={480} mx="auto" mt={{ base: 'sm', sm: 'xl' }}>
        <Stack>
          <Title order={1} size="h2">
            <FormattedMessage id="signUp.checkInbox.title" defaultMessage="Check your inbox" />
          </Title>
          <Text>
            <FormattedMessage
              id="signUp.checkInbox.body"
              defaultMessage="We sent a link to {email}. Open it to verify your address; you will be signed in."
              values={{ email: <strong>{sentTo}</strong> }}
            />
          </Text>
          <DevOutboxHint />
        </Stack>
      </Paper>
    );
  }

  return (
    <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} maw={440} mx="auto" mt={{ base: 'sm', sm: 'xl' }}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={1} size="h2">
            <FormattedMessage id="signUp.title" defaultMessage="Create your Admit account" />
          </Title>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <TextInput
            label={intl.formatMessage({ id: 'signUp.name', defaultMessage: 'Your name' })}
            autoComplete="name"
            required
            {...form.getInputProps('name')}
          />
          <TextInput
            label={intl.formatMessage({ id: 'signUp.email', defaultMessage: 'Email' })}
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label={intl.formatMessage({ id: 'signUp.password', defaultMessage: 'Password' })}
            description={intl.formatMessage(passwordRuleMessage, { minimum: accountLimits.passwordMin })}
            autoComplete="new-password"
            required
            {...form.getInputProps('password')}
          />
          <Button type="submit" loading={submitting} fullWidth>
            <FormattedMessage id="signUp.submit" defaultMessage="Create account" />
          </Button>
          <FederatedSignInButtons redirectTo={redirectTo} />
          <Text size="sm" ta="center">
            <FormattedMessage
              id="signUp.haveAccount"
              defaultMessage="Already have an account? <link>Sign in</link>"
              values={{
                link: (chunks) => (
                  <AnchorLink to="/sign-in" search={{ redirect: redirectTo }}>
                    {chunks}
                  </AnchorLink>
                ),
              }}
            />
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}
