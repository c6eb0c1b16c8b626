import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  PasswordInput,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import QRCode from 'qrcode';
import { useEffect, useState, type FormEvent } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { authClient } from '../../lib/auth-client';
import { useSession } from '../../lib/session';
import { requiredMessage } from '../../lib/form';
import { authErrorMessage } from './auth-error';
import { useHasPassword } from './use-has-password';

const messages = defineMessages({
  wrongPassword: { id: 'twoFactor.setup.wrongPassword', defaultMessage: 'Your password is not right.' },
  wrongCode: { id: 'twoFactor.setup.wrongCode', defaultMessage: 'That code is not right. Enter the current code from your app.' },
});

function setupErrorMessage(intl: IntlShape, error: { code?: string; status?: number }) {
  if (error.code === 'INVALID_PASSWORD') return intl.formatMessage(messages.wrongPassword);
  if (error.code === 'INVALID_CODE') return intl.formatMessage(messages.wrongCode);
  return authErrorMessage(intl, error);
}

type Step =
  { kind: 'idle' } | { kind: 'scan'; totpUri: string; backupCodes: string[] } | { kind: 'backup-codes'; backupCodes: string[] };

/** The QR code an authenticator app scans: drawn on the device, the secret never leaves it. */
function TotpQr({ uri, label }: { uri: string; label: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }).then((markup) => {
      if (current) setSvg(markup);
    });
    return () => {
      current = false;
    };
  }, [uri]);
  if (!svg) return <Skeleton w={200} h={200} />;
  return <img src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`} width={200} height={200} alt={label} />;
}

function downloadBackupCodes(codes: string[], intro: string) {
  const blob = new Blob([`${intro}\n\n${codes.join('\n')}\n`], { type: 'text/plain;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = 'admit-backup-codes.txt';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Turn TOTP two-factor authentication on (password → scan → verify → backup codes once) or off. */
export function TwoFactorSection() {
  const intl = useIntl();
  const session = useSession();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<'disabled' | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const enabled = Boolean(session.data?.user.twoFactorEnabled);
  // Without a password of their own (email link, phone, provider), the session is enough.
  // Until that is known, the buttons wait: a click would ask for a password the person may not have.
  const passwordKnown = useHasPassword();
  const hasPassword = passwordKnown !== false;

  async function run<T>(action: () => Promise<{ data: T | null; error: { code?: string; status?: number } | null }>) {
    setSubmitting(true);
    setError(null);
    setNotice(null);
    const result = await action();
    setSubmitting(false);
    if (result.error) {
      setError(setupErrorMessage(intl, result.error));
      return null;
    }
    return result.data;
  }

  /** An empty password is asked for next to its field, not sent to be refused as wrong. */
  function passwordMissing() {
    const missing = hasPassword && password === '';
    setPasswordError(missing ? requiredMessage(intl) : null);
    return missing;
  }

  async function start(event: FormEvent) {
    event.preventDefault();
    if (passwordMissing()) return;
    const data = await run(() => authClient.twoFactor.enable(hasPassword ? { password } : {}));
    if (!data || data.method !== 'totp') return;
    setPassword('');
    setCode('');
    setStep({ kind: 'scan', totpUri: data.totpURI, backupCodes: data.backupCodes });
  }

  async function verify(event: FormEvent) {
    event.preventDefault();
    if (step.kind !== 'scan') return;
    const data = await run(() => authClient.twoFactor.verifyTotp({ code }));
    if (!data) return;
    setStep({ kind: 'backup-codes', backupCodes: step.backupCodes });
  }

  async function disable(event: FormEvent) {
    event.preventDefault();
    if (passwordMissing()) return;
    const data = await run(() => authClient.twoFactor.disable(hasPassword ? { password } : {}));
    if (!data) return;
    setPassword('');
    setNotice('disabled');
  }

  const errorAlert = error && (
    <Alert color="red" role="alert">
      {error}
    </Alert>
  );
  const passwordInput = hasPassword && (
    <PasswordInput
      label={intl.formatMessage({ id: 'twoFactor.password', defaultMessage: 'Your password' })}
      autoComplete="current-password"
      required
      value={password}
      error={passwordError}
      onChange={(event) => {
        setPassword(event.currentTarget.value);
        setPasswordError(null);
      }}
    />
  );

  let body;
  if (step.kind === 'scan') {
    const secret = new URL(step.totpUri).searchParams.get('secret') ?? '';
    body = (
      <form onSubmit={verify} noValidate>
        <Stack>
          <Text>
            <FormattedMessage
              id="twoFactor.setup.scan"
              defaultMessage="Scan this QR code with your authenticator app, then enter the 6-digit code it shows."
            />
          </Text>
          <Group align="flex-start" gap="lg">
            <TotpQr
              uri={step.totpUri}
              label={intl.formatMessage({ id: 'twoFactor.setup.qrLabel', defaultMessage: 'QR code for your authenticator app' })}
            />
            <Stack gap={4} style={{ minWidth: 0, flex: '1 1 12rem' }}>
              <Text size="sm" c="dimmed">
                <FormattedMessage id="twoFactor.setup.secret" defaultMessage="Cannot scan? Enter this key instead:" />
              </Text>
              <Code style={{ overflowWrap: 'anywhere' }} data-testid="totp-secret">
                {secret}
              </Code>
            </Stack>
          </Group>
          {errorAlert}
          <TextInput
            label={intl.formatMessage({ id: 'twoFactor.setup.code', defaultMessage: 'Code from your app' })}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            required
            value={code}
            onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, ''))}
          />
          <Group>
            <Button type="submit" loading={submitting}>
              <FormattedMessage id="twoFactor.setup.verify" defaultMessage="Verify and turn on" />
            </Button>
            <Button variant="subtle" onClick={() => setStep({ kind: 'idle' })} disabled={submitting}>
              <FormattedMessage id="twoFactor.setup.cancel" defaultMessage="Cancel" />
            </Button>
          </Group>
        </Stack>
      </form>
    );
  } else if (step.kind === 'backup-codes') {
    const intro = intl.formatMessage({
      id: 'twoFactor.backupCodes.fileIntro',
      defaultMessage: 'Admit backup codes. Each code signs you in once when you cannot use your authenticator app.',
    });
    body = (
      <Stack>
        <Alert color="green" role="status">
          <FormattedMessage id="twoFactor.enabled.notice" defaultMessage="Two-factor authentication is on." />
        </Alert>
        <Text>
          <FormattedMessage
            id="twoFactor.backupCodes.intro"
            defaultMessage="Save these backup codes somewhere safe. Each one signs you in once if you lose your phone. They are shown only now."
          />
        </Text>
        <SimpleGrid
          cols={{ base: 2, sm: 5 }}
          spacing="xs"
          aria-label={intl.formatMessage({ id: 'twoFactor.backupCodes.label', defaultMessage: 'Backup codes' })}
        >
          {step.backupCodes.map((backupCode) => (
            <Code key={backupCode} ta="center" data-testid="backup-code">
              {backupCode}
            </Code>
          ))}
        </SimpleGrid>
        <Group>
          <Button onClick={() => downloadBackupCodes(step.backupCodes, intro)}>
            <FormattedMessage id="twoFactor.backupCodes.download" defaultMessage="Download (.txt)" />
          </Button>
          <Button variant="default" onClick={() => setStep({ kind: 'idle' })}>
            <FormattedMessage id="twoFactor.backupCodes.done" defaultMessage="I have saved them" />
          </Button>
        </Group>
      </Stack>
    );
  } else if (enabled) {
    body = (
      <form onSubmit={disable} noValidate>
        <Stack>
          <Text>
            <FormattedMessage
              id="twoFactor.enabled.body"
              defaultMessage="Each time you sign in, Admit also asks for a code from your authenticator app."
            />
          </Text>
          {errorAlert}
          {passwordInput}
          <Group>
            <Button type="submit" color="red" variant="light" loading={submitting} disabled={passwordKnown === undefined}>
              <FormattedMessage id="twoFactor.disable" defaultMessage="Turn off two-factor authentication" />
            </Button>
          </Group>
        </Stack>
      </form>
    );
  } else {
    body = (
      <form onSubmit={start} noValidate>
        <Stack>
          {notice === 'disabled' && (
            <Alert color="yellow" role="status">
              <FormattedMessage id="twoFactor.disabled.notice" defaultMessage="Two-factor authentication is off." />
            </Alert>
          )}
          <Text>
            <FormattedMessage
              id="twoFactor.off.body"
              defaultMessage="Protect your account with a code from an authenticator app each time you sign in."
            />
          </Text>
          {errorAlert}
          {passwordInput}
          <Group>
            <Button type="submit" loading={submitting} disabled={passwordKnown === undefined}>
              <FormattedMessage id="twoFactor.enable" defaultMessage="Turn on two-factor authentication" />
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }}>
      <Stack>
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h3">
            <FormattedMessage id="twoFactor.title" defaultMessage="Two-factor authentication" />
          </Title>
          <Badge color={enabled ? 'green' : 'gray'} variant="light">
            {enabled ? (
              <FormattedMessage id="twoFactor.status.on" defaultMessage="On" />
            ) : (
              <FormattedMessage id="twoFactor.status.off" defaultMessage="Off" />
            )}
          </Badge>
        </Group>
        {body}
      </Stack>
    </Paper>
  );
}
