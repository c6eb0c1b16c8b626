import { AnchorLink } from '../../lib/links';
import { Alert, Button, Paper, PasswordInput, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { AccountEmail, accountLimits } from '@admit/shared/account';
import { z } from 'zod';
import { authClient } from '../../lib/auth-client';
import { validateWith } from '../../lib/form';
import { liveClient } from '../../lib/live';
import { usePageTitle } from '../../lib/page-title';
import { authErrorMessage } from './auth-error';
import { EmailLinkSignIn } from './email-link-sign-in';
import { FederatedSignInButtons, FederatedSignInError } from './federated-sign-in';
import { PhoneSignIn } from './phone-sign-in';
import { TwoFactorChallenge } from './two-factor-challenge';

const SignInForm = z.object({ email: AccountEmail, password: z.string().min(1).max(accountLimits.passwordMax) });

export type SignInMethod = 'password' | 'email-link' | 'phone';

/**
 * `linkError`: the code the server puts on the sign-in address when an email link did not work.
 * `secondFactor`: an email link was right and the person has two-factor authentication on, so
 * the page opens at the code step (the server holds the pending sign-in in a cookie).
 */
export function SignInPage(props: {
  redirectTo: string;
  initialMethod?: SignInMethod;
  linkError?: string;
  secondFactor?: boolean;
}) {
  const { redirectTo, linkError } = props;
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'pageTitle.signIn', defaultMessage: 'Sign in' }));
  const navigate = useNavigate();
  const [method, setMethod] = useState<SignInMethod>(props.initialMethod ?? 'password');
  const [twoFactorPending, setTwoFactorPending] = useState(props.secondFactor ?? false);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({ initialValues: { email: '', password: '' }, validate: validateWith(SignInForm, intl) });

  const submit = form.onSubmit(async (values) => {
    setSubmitting(true);
    setError(null);
    const result = await authClient.signIn.email({
      email: values.email.trim(),
      password: values.password,
      callbackURL: redirectTo,
    });
    setSubmitting(false);
    if (result.error) {
      setError(authErrorMessage(intl, result.error));
      return;
    }
    if ('twoFactorRedirect' in result.data && result.data.twoFactorRedirect) {
      setTwoFactorPending(true);
      return;
    }
    await signedIn();
  });

  async function signedIn() {
    liveClient.reconnect();
    await navigate({ to: redirectTo });
  }

  if (twoFactorPending) {
    return (
      <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} maw={440} mx="auto" mt={{ base: 'sm', sm: 'xl' }}>
        <TwoFactorChallenge onSignedIn={signedIn} />
      </Paper>
    );
  }

  return (
    <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} maw={440} mx="auto" mt={{ base: 'sm', sm: 'xl' }}>
      <Stack>
        <Title order={1} size="h2">
          <FormattedMessage id="signIn.title" defaultMessage="Sign in to Admit" />
        </Title>
        <SegmentedControl
          fullWidth
          value={method}
          onChange={(value) => setMethod(value as SignInMethod)}
          aria-label={intl.formatMessage({ id: 'signIn.method', defaultMessage: 'How to sign in' })}
          data={[
            { value: 'password', label: intl.formatMessage({ id: 'signIn.method.password', defaultMessage: 'Password' }) },
            { value: 'email-link', label: intl.formatMessage({ id: 'signIn.method.emailLink', defaultMessage: 'Email link' }) },
            { value: 'phone', label: intl.formatMessage({ id: 'signIn.method.phone', defaultMessage: 'Phone' }) },
          ]}
        />
        {linkError && method === 'email-link' && (
          <Alert color="red" role="alert">
            <FormattedMessage
              id="signIn.emailLink.invalid"
              defaultMessage="This sign-in link has expired or was used already. Ask for a new one below."
            />
          </Alert>
        )}
        {method === 'email-link' && <EmailLinkSignIn redirectTo={redirectTo} />}
        {method === 'phone' && <PhoneSignIn onSignedIn={signedIn} onSecondFactor={() => setTwoFactorPending(true)} />}
        {method === 'password' && (
          <form onSubmit={submit} noValidate>
            <Stack>
              <FederatedSignInError />
              {error && (
                <Alert color="red" role="alert">
                  {error}
                </Alert>
              )}
              <TextInput
                label={intl.formatMessage({ id: 'signIn.email', defaultMessage: 'Email' })}
                type="email"
                autoComplete="email"
                required
                {...form.getInputProps('email')}
              />
              <PasswordInput
                label={intl.formatMessage({ id: 'signIn.password', defaultMessage: 'Password' })}
                autoComplete="current-password"
                required
                {...form.getInputProps('password')}
              />
              <Text size="sm" ta="end" mt={-8}>
                <AnchorLink to="/forgot-password">
                  <FormattedMessage id="signIn.forgotPassword" defaultMessage="Forgot your password?" />
                </AnchorLink>
              </Text>
              <Button type="submit" loading={submitting} fullWidth>
                <FormattedMessage id="signIn.submit" defaultMessage="Sign in" />
              </Button>
            </Stack>
          </form>
        )}
        <FederatedSignInButtons redirectTo={redirectTo} />
        <Text size="sm" ta="center">
          <FormattedMessage
            id="signIn.noAccount"
            defaultMessage="New to Admit? <link>Create an account</link>"
            values={{
              link: (chunks) => (
                <AnchorLink to="/sign-up" search={{ redirect: redirectTo }}>
                  {chunks}
                </AnchorLink>
              ),
            }}
          />
        </Text>
      </Stack>
    </Paper>
  );
}
