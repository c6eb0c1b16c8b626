import { isPlaceholderEmail, shownContact } from '@admit/shared/people';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSession } from '../../lib/session';
import { PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { ChangeEmailForm } from './change-email-form';
import { NameSection } from './display-name';
import { ChangePasswordForm } from './change-password-form';
import { DeleteAccountSection } from './delete-account-section';
import { SessionsList } from './sessions-list';
import { SignInMethodsSection } from './sign-in-methods-section';
import { TwoFactorSection } from './two-factor-section';
import { useHasPassword } from './use-has-password';

export function AccountPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'pageTitle.account', defaultMessage: 'Your account' }));
  const session = useSession();
  const hasPassword = useHasPassword();
  if (!session.data) return <PageLoader />;
  const { user } = session.data;
  return (
    <Stack maw={760} mx="auto" gap="lg">
      <Title order={1}>
        <FormattedMessage id="account.title" defaultMessage="Your account" />
      </Title>
      {/* Remade when the name changes elsewhere (the first-sign-in prompt), so the field shows it. */}
      <NameSection key={user.name} name={user.name} />
      <Paper withBorder p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="xs">
          <Title order={2} size="h3">
            <FormattedMessage id="account.contact.title" defaultMessage="How you sign in" />
          </Title>
          <Text style={{ overflowWrap: 'anywhere' }}>
            {isPlaceholderEmail(user.email) ? (
              <FormattedMessage
                id="account.profile.phone"
                defaultMessage="Phone: <b>{phone}</b>"
                values={{ phone: shownContact(user.email), b: (chunks) => <strong>{chunks}</strong> }}
              />
            ) : (
              <FormattedMessage
                id="account.profile.email"
                defaultMessage="Email: <b>{email}</b>"
                values={{ email: user.email, b: (chunks) => <strong>{chunks}</strong> }}
              />
            )}
          </Text>
        </Stack>
      </Paper>
      <SignInMethodsSection />
      {/* Someone who signs in by email link, phone or a provider has no current password to change. */}
      {hasPassword && <ChangePasswordForm />}
      <ChangeEmailForm currentEmail={user.email} />
      <TwoFactorSection />
      {/* With no network only the person is known, not this device's session (nor the others). */}
      <SessionsList currentSessionId={session.data.session?.id ?? null} />
      <DeleteAccountSection />
    </Stack>
  );
}
