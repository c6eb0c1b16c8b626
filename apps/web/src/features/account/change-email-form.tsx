import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { AccountEmail } from '@admit/shared/account';
import { z } from 'zod';
import { authClient } from '../../lib/auth-client';
import { validateWith } from '../../lib/form';
import { authErrorMessage } from './auth-error';
import { DevOutboxHint } from './dev-outbox';

const ChangeEmailInput = z.object({ newEmail: AccountEmail });

export function ChangeEmailForm({ currentEmail }: { currentEmail: string }) {
  const intl = useIntl();
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({ initialValues: { newEmail: '' }, validate: validateWith(ChangeEmailInput, intl) });

  const submit = form.onSubmit(async (values) => {
    const newEmail = values.newEmail.trim();
    if (newEmail.toLowerCase() === currentEmail.toLowerCase()) {
      form.setFieldError(
        'newEmail',
        intl.formatMessage({ id: 'account.email.same', defaultMessage: 'This is already your email address.' }),
      );
      return;
    }
    setSubmitting(true);
    setError(null);
    const result = await authClient.changeEmail({ newEmail, callbackURL: '/account' });
    setSubmitting(false);
    if (result.error) {
      setError(authErrorMessage(intl, result.error));
      return;
    }
    form.reset();
    setSentTo(newEmail);
  });

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h3">
            <FormattedMessage id="account.email.title" defaultMessage="Change email" />
          </Title>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          {sentTo && (
            <Alert
              color="blue"
              role="status"
              title={intl.formatMessage({ id: 'account.email.sent.title', defaultMessage: 'Check your new inbox' })}
            >
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                <FormattedMessage
                  id="account.email.sent.body"
                  defaultMessage="We sent a link to {email}. Your email changes when you open it; until then you keep using {current}."
                  values={{ email: <strong>{sentTo}</strong>, current: currentEmail }}
                />
              </Text>
            </Alert>
          )}
          {sentTo && <DevOutboxHint />}
          <TextInput
            label={intl.formatMessage({ id: 'account.email.new', defaultMessage: 'New email address' })}
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('newEmail')}
          />
          <Group>
            <Button type="submit" loading={submitting}>
              <FormattedMessage id="account.email.submit" defaultMessage="Send confirmation link" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
