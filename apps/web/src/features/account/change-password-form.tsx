import { Alert, Button, Checkbox, Group, Paper, PasswordInput, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { accountLimits, NewPassword } from '@admit/shared/account';
import { z } from 'zod';
import { authClient } from '../../lib/auth-client';
import { validateWith } from '../../lib/form';
import { authErrorMessage, passwordRuleMessage } from './auth-error';

const ChangePasswordInput = z.object({
  currentPassword: z.string().min(1).max(accountLimits.passwordMax),
  newPassword: NewPassword,
  revokeOtherSessions: z.boolean(),
});

export function ChangePasswordForm() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    initialValues: { currentPassword: '', newPassword: '', revokeOtherSessions: true },
    validate: validateWith(ChangePasswordInput, intl),
  });

  const submit = form.onSubmit(async (values) => {
    setSubmitting(true);
    setError(null);
    setSaved(false);
    const result = await authClient.changePassword(values);
    setSubmitting(false);
    if (result.error) {
      setError(authErrorMessage(intl, result.error));
      return;
    }
    form.reset();
    setSaved(true);
    // Other sessions may have ended, and this one was replaced.
    await queryClient.invalidateQueries({ queryKey: ['account', 'sessions'] });
  });

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h3">
            <FormattedMessage id="account.password.title" defaultMessage="Change password" />
          </Title>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          {saved && (
            <Alert color="green" role="status">
              <FormattedMessage id="account.password.saved" defaultMessage="Your password is changed." />
            </Alert>
          )}
          <PasswordInput
            label={intl.formatMessage({ id: 'account.password.current', defaultMessage: 'Current password' })}
            autoComplete="current-password"
            required
            {...form.getInputProps('currentPassword')}
          />
          <PasswordInput
            label={intl.formatMessage({ id: 'account.password.new', defaultMessage: 'New password' })}
            description={intl.formatMessage(passwordRuleMessage, { minimum: accountLimits.passwordMin })}
            autoComplete="new-password"
            required
            {...form.getInputProps('newPassword')}
          />
          <Checkbox
            label={intl.formatMessage({
              id: 'account.password.revokeOthers',
              defaultMessage: 'Sign out on all other devices',
            })}
            {...form.getInputProps('revokeOtherSessions', { type: 'checkbox' })}
          />
          <Group>
            <Button type="submit" loading={submitting}>
              <FormattedMessage id="account.password.submit" defaultMessage="Change password" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
