import { AnchorLink, ButtonLink } from '../../lib/links';
import { Alert, Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { accountLimits, NewPassword } from '@admit/shared/account';
import { z } from 'zod';
import { authClient } from '../../lib/auth-client';
import { validateWith } from '../../lib/form';
import { liveClient } from '../../lib/live';
import { usePageTitle } from '../../lib/page-title';
import { authErrorMessage, passwordRuleMessage } from './auth-error';

const ResetPasswordForm = z.object({ password: NewPassword, repeat: z.string().min(1) });

export function ResetPasswordPage({ token }: { token: string | undefined }) {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'pageTitle.resetPassword', defaultMessage: 'New password' }));
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    initialValues: { password: '', repeat: '' },
    validate: (values) => {
      const errors = validateWith(ResetPasswordForm, intl)(values);
      if (!errors.repeat && values.repeat !== values.password)
        errors.repeat = intl.formatMessage({ id: 'resetPassword.mismatch', defaultMessage: 'The two passwords differ.' });
      return errors;
    },
  });

  const submit = form.onSubmit(async (values) => {
    if (!token) return;
    setSubmitting(true);
    setError(null);
    const result = await authClient.resetPassword({ token, newPassword: values.password });
    setSubmitting(false);
    if (result.error) {
      setError(authErrorMessage(intl, result.error));
      return;
    }
    // Every session of this person has ended, this browser's too.
    liveClient.reconnect();
    setDone(true);
  });

  if (done) {
    return (
      <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} maw={480} mx="auto" mt={{ base: 'sm', sm: 'xl' }}>
        <Stack>
          <Title order={1} size="h2">
            <FormattedMessage id="resetPassword.done.title" defaultMessage="Your password is changed" />
          </Title>
          <Text>
            <FormattedMessage
              id="resetPassword.done.body"
              defaultMessage="For your safety we have signed you out everywhere. Sign in with your new password."
            />
          </Text>
          <ButtonLink to="/sign-in">
            <FormattedMessage id="resetPassword.done.signIn" defaultMessage="Sign in" />
          </ButtonLink>
        </Stack>
      </Paper>
    );
  }

  if (!token) {
    return (
      <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} maw={480} mx="auto" mt={{ base: 'sm', sm: 'xl' }}>
        <Stack>
          <Title order={1} size="h2">
            <FormattedMessage id="resetPassword.title" defaultMessage="Choose a new password" />
          </Title>
          <Alert color="red" role="alert">
            <FormattedMessage
              id="resetPassword.noToken"
              defaultMessage="This link is not complete. Open the link from the email again, or ask for a new one."
            />
          </Alert>
          <AnchorLink to="/forgot-password">
            <FormattedMessage id="resetPassword.askAgain" defaultMessage="Ask for a new link" />
          </AnchorLink>
        </Stack>
      </Paper>
    );
  }

  return (
    <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} maw={440} mx="auto" mt={{ base: 'sm', sm: 'xl' }}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={1} size="h2">
            <FormattedMessage id="resetPassword.title" defaultMessage="Choose a new password" />
          </Title>
          {error && (
            <Alert color="red" role="alert">
              <Stack gap="xs">
                <span>{error}</span>
                <AnchorLink to="/forgot-password">
                  <FormattedMessage id="resetPassword.askAgain" defaultMessage="Ask for a new link" />
                </AnchorLink>
              </Stack>
            </Alert>
          )}
          <PasswordInput
            label={intl.formatMessage({ id: 'resetPassword.password', defaultMessage: 'New password' })}
            description={intl.formatMessage(passwordRuleMessage, { minimum: accountLimits.passwordMin })}
            autoComplete="new-password"
            required
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label={intl.formatMessage({ id: 'resetPassword.repeat', defaultMessage: 'New password again' })}
            autoComplete="new-password"
            required
            {...form.getInputProps('repeat')}
          />
          <Button type="submit" loading={submitting} fullWidth>
            <FormattedMessage id="resetPassword.submit" defaultMessage="Save new password" />
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
