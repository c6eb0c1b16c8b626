import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { authClient } from '../../lib/auth-client';
import { authErrorMessage } from './auth-error';
import { useDevOutbox } from './dev-outbox';

const messages = defineMessages({
  badNumber: {
    id: 'signIn.phone.badNumber',
    defaultMessage: 'Enter the number with its country code, starting with +, for example +49 151 23456789.',
  },
  badCode: { id: 'signIn.phone.badCode', defaultMessage: 'Enter the 6 digits from the text message.' },
  wrongCode: { id: 'signIn.phone.wrongCode', defaultMessage: 'That code is not right. Check the text message and try again.' },
  expiredCode: { id: 'signIn.phone.expiredCode', defaultMessage: 'That code has expired. Send a new one.' },
  usedCode: { id: 'signIn.phone.usedCode', defaultMessage: 'That code was used already or has expired. Send a new one.' },
  tooManyAttempts: {
    id: 'signIn.phone.tooManyAttempts',
    defaultMessage: 'That was the third wrong code, so it no longer works. Send a new one.',
  },
});

/** "+49 151 2345-6789" or "0049 151 …" → "+4915123456789"; E.164 allows at most 15 digits. */
export function normalisePhoneNumber(input: string): string {
  const compact = input.replace(/[\s\-().]/g, '');
  return compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
}
const isE164 = (phone: string) => /^\+[1-9]\d{6,14}$/.test(phone);

function phoneErrorMessage(intl: IntlShape, error: { code?: string; status?: number }): string {
  switch (error.code) {
    case 'INVALID_PHONE_NUMBER':
      return intl.formatMessage(messages.badNumber);
    case 'INVALID_OTP':
      return intl.formatMessage(messages.wrongCode);
    case 'OTP_EXPIRED':
      return intl.formatMessage(messages.expiredCode);
    case 'OTP_NOT_FOUND':
      return intl.formatMessage(messages.usedCode);
    case 'TOO_MANY_ATTEMPTS':
      return intl.formatMessage(messages.tooManyAttempts);
    default:
      return authErrorMessage(intl, error);
  }
}

/** Sign-in with a phone number and a 6-digit code by SMS; the first verified code creates the account. */
export function PhoneSignIn({ onSignedIn, onSecondFactor }: { onSignedIn(): Promise<void>; onSecondFactor(): void }) {
  const intl = useIntl();
  const devOutbox = useDevOutbox();
  const [phone, setPhone] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function sendCode(event?: FormEvent) {
    event?.preventDefault();
    const phoneNumber = normalisePhoneNumber(phone);
    if (!isE164(phoneNumber)) {
      setFieldError(intl.formatMessage(messages.badNumber));
      return;
    }
    setFieldError(null);
    setError(null);
    setSubmitting(true);
    const result = await authClient.phoneNumber.sendOtp({ phoneNumber });
    setSubmitting(false);
    if (result.error) {
      setError(phoneErrorMessage(intl, result.error));
      return;
    }
    setCode('');
    setSentTo(phoneNumber);
  }

  async function verify(event: FormEvent) {
    event.preventDefault();
    if (!sentTo) return;
    if (!/^\d{6}$/.test(code)) {
      setFieldError(intl.formatMessage(messages.badCode));
      return;
    }
    setFieldError(null);
    setError(null);
    setSubmitting(true);
    const result = await authClient.phoneNumber.verify({ phoneNumber: sentTo, code });
    setSubmitting(false);
    if (result.error) {
      setError(phoneErrorMessage(intl, result.error));
      return;
    }
    // With two-factor authentication on, the right code leads to the second step, not in.
    if ('twoFactorRedirect' in result.data && result.data.twoFactorRedirect) onSecondFactor();
    else await onSignedIn();
  }

  const errorAlert = error && (
    <Alert color="red" role="alert">
      {error}
    </Alert>
  );

  if (sentTo) {
    return (
      <form onSubmit={verify} noValidate>
        <Stack>
          {errorAlert}
          <Text role="status">
            <FormattedMessage
              id="signIn.phone.sent"
              defaultMessage="We sent a 6-digit code to {phone}. It works for 5 minutes."
              values={{ phone: sentTo }}
            />
          </Text>
          {devOutbox && (
            <Alert color="yellow">
              <FormattedMessage
                id="signIn.phone.devOutbox"
                defaultMessage="This server does not send real text messages. Find the code in the <link>dev outbox</link>."
                values={{ link: (chunks) => <Anchor href="/dev/outbox">{chunks}</Anchor> }}
              />
            </Alert>
          )}
          <TextInput
            label={intl.formatMessage({ id: 'signIn.phone.code', defaultMessage: 'Code' })}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            required
            value={code}
            error={fieldError}
            onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, ''))}
          />
          <Button type="submit" loading={submitting} fullWidth>
            <FormattedMessage id="signIn.phone.verify" defaultMessage="Sign in" />
          </Button>
          <Group justify="space-between" gap="xs">
            <Button variant="subtle" size="compact-sm" onClick={() => void sendCode()} disabled={submitting}>
              <FormattedMessage id="signIn.phone.resend" defaultMessage="Send a new code" />
            </Button>
            <Button variant="subtle" size="compact-sm" onClick={() => setSentTo(null)} disabled={submitting}>
              <FormattedMessage id="signIn.phone.changeNumber" defaultMessage="Use another number" />
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }

  return (
    <form onSubmit={sendCode} noValidate>
      <Stack>
        {errorAlert}
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="signIn.phone.intro"
            defaultMessage="We text you a 6-digit code. New here? The code creates your account."
          />
        </Text>
        <TextInput
          label={intl.formatMessage({ id: 'signIn.phone.number', defaultMessage: 'Phone number' })}
          description={intl.formatMessage({
            id: 'signIn.phone.numberHint',
            defaultMessage: 'With country code, for example +49 151 23456789.',
          })}
          type="tel"
          autoComplete="tel"
          required
          value={phone}
          error={fieldError}
          onChange={(event) => setPhone(event.currentTarget.value)}
        />
        <Button type="submit" loading={submitting} fullWidth>
          <FormattedMessage id="signIn.phone.submit" defaultMessage="Text me a code" />
        </Button>
      </Stack>
    </form>
  );
}
