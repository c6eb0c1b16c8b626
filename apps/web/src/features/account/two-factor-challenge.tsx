import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { authClient } from '../../lib/auth-client';
import { authErrorMessage } from './auth-error';

const messages = defineMessages({
  wrongCode: {
    id: 'twoFactor.challenge.wrongCode',
    defaultMessage: 'That code is not right. Enter the current code from your app.',
  },
  wrongBackupCode: {
    id: 'twoFactor.challenge.wrongBackupCode',
    defaultMessage: 'That backup code is not right or was used already.',
  },
  expired: {
    id: 'twoFactor.challenge.expired',
    defaultMessage: 'This sign-in took too long or had too many wrong codes. Please sign in again.',
  },
  locked: {
    id: 'twoFactor.challenge.locked',
    defaultMessage: 'Too many wrong codes for this account. Please wait 15 minutes and try again.',
  },
});

function challengeErrorMessage(intl: IntlShape, error: { code?: string; status?: number }): string {
  switch (error.code) {
    case 'INVALID_CODE':
      return intl.formatMessage(messages.wrongCode);
    case 'INVALID_BACKUP_CODE':
      return intl.formatMessage(messages.wrongBackupCode);
    case 'INVALID_TWO_FACTOR_COOKIE':
    case 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE':
      return intl.formatMessage(messages.expired);
    case 'ACCOUNT_TEMPORARILY_LOCKED':
      return intl.formatMessage(messages.locked);
    default:
      return authErrorMessage(intl, error);
  }
}

/** The second step of a password sign-in for a person with two-factor authentication on. */
export function TwoFactorChallenge({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const intl = useIntl();
  const [useBackupCode, setUseBackupCode] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    const result = useBackupCode
      ? await authClient.twoFactor.verifyBackupCode({ code: code.trim() })
      : await authClient.twoFactor.verifyTotp({ code: code.replace(/\s/g, '') });
    setSubmitting(false);
    if (result.error) {
      setError(challengeErrorMessage(intl, result.error));
      return;
    }
    await onSignedIn();
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Title order={1} size="h2">
          <FormattedMessage id="twoFactor.challenge.title" defaultMessage="Two-factor authentication" />
        </Title>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Text>
          {useBackupCode ? (
            <FormattedMessage
              id="twoFactor.challenge.backupIntro"
              defaultMessage="Enter one of the backup codes you saved when you turned on two-factor authentication. Each works once."
            />
          ) : (
            <FormattedMessage id="twoFactor.challenge.intro" defaultMessage="Enter the 6-digit code from your app." />
          )}
        </Text>
        {useBackupCode ? (
          <TextInput
            key="backup"
            label={intl.formatMessage({ id: 'twoFactor.challenge.backupCode', defaultMessage: 'Backup code' })}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            required
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
        ) : (
          <TextInput
            key="totp"
            label={intl.formatMessage({ id: 'twoFactor.challenge.code', defaultMessage: 'Code' })}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            required
            value={code}
            onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, ''))}
          />
        )}
        <Button type="submit" loading={submitting} fullWidth>
          <FormattedMessage id="twoFactor.challenge.submit" defaultMessage="Verify" />
        </Button>
        <Button
          variant="subtle"
          onClick={() => {
            setUseBackupCode(!useBackupCode);
            setCode('');
            setError(null);
          }}
        >
          {useBackupCode ? (
            <FormattedMessage id="twoFactor.challenge.useApp" defaultMessage="Use the code from your app instead" />
          ) : (
            <FormattedMessage id="twoFactor.challenge.useBackup" defaultMessage="Use a backup code instead" />
          )}
        </Button>
      </Stack>
    </form>
  );
}
