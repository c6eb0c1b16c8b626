import { Paper, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { useSession } from '../../lib/auth-client';
import { PageLoader } from '../../lib/page-state';
import { ChangeEmailForm } from './change-email-form';
import { ChangePasswordForm } from './change-password-form';
import { DeleteAccountSection } from './delete-account-section';
import { SessionsList } from './sessions-list';
import { SignInMethodsSection } from './sign-in-methods-section';
import { TwoFactorSection } from './two-factor-section';
import { useHasPassword } from './use-has-password';

export function AccountPage() {
  const session = useSession();
  const hasPassword = useHasPassword();
  if (!session.data) return <PageLoader />;
  const { user } = session.data;
  return (
    <Stack maw={760} mx="auto" gap="lg">
      <Title order={1}>
        <FormattedMessage id="account.title" defaultMessage="Your account" />
      </Title>
      <Paper withBorder p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="xs">
          <Title order={2} size="h3">
            <FormattedMessage id="account.profile.title" defaultMessage="Profile" />
          </Title>
          <Text>
            <FormattedMessage
              id="account.profile.name"
              defaultMessage="Name: <b>{name}</b>"
              values={{ name: user.name, b: (chunks) => <strong>{chunks}</strong> }}
            />
          </Text>
          <Text style={{ overflowWrap: 'anywhere' }}>
            <FormattedMessage
              id="account.profile.email"
              defaultMessage="Email: <b>{email}</b>"
              values={{ email: user.email, b: (chunks) => <strong>{chunks}</strong> }}
            />
          </Text>
        </Stack>
      </Paper>
      <SignInMethodsSection />
      {/* Someone who signs in by email link, phone or a provider has no current password to change. */}
      {hasPassword && <ChangePasswordForm />}
      <ChangeEmailForm currentEmail={user.email} />
      <TwoFactorSection />
      <SessionsList currentSessionId={session.data.session.id} />
      <DeleteAccountSection />
    </Stack>
  );
}
