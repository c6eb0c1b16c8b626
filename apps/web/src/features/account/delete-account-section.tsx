import { Alert, Button, Group, Modal, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { authClient } from '../../lib/auth-client';
import { authErrorMessage } from './auth-error';
import { useHasPassword } from './use-has-password';

export function DeleteAccountSection() {
  const intl = useIntl();
  const hasPassword = useHasPassword();
  const [opened, setOpened] = useState(false);
  const [password, setPassword] = useState('');
  const [typed, setTyped] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirmWord = intl.formatMessage({ id: 'account.delete.confirmWord', defaultMessage: 'DELETE' });
  const ready = hasPassword ? password.length > 0 : typed.trim() === confirmWord;

  function close() {
    setOpened(false);
    setPassword('');
    setTyped('');
    setError(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready) return;
    setPending(true);
    setError(null);
    const result = await authClient.deleteUser(hasPassword ? { password } : {});
    if (result.error) {
      setPending(false);
      setError(
        result.error.code === 'OWNS_ORGANIZATION_WITH_UPCOMING_SALES'
          ? intl.formatMessage({
              id: 'account.delete.ownsOrganization',
              defaultMessage:
                'You own an organization with an upcoming event that has paid orders. Transfer ownership or wait until the event has ended, then delete your account.',
            })
          : result.error.code === 'OWNS_ORGANIZATION_WITH_MEMBERS'
            ? intl.formatMessage({
                id: 'account.delete.ownsOrganizationWithMembers',
                defaultMessage:
                  'You own an organization that other people belong to. Make one of them the owner on its members page, then delete your account.',
              })
            : result.error.code === 'INVALID_PASSWORD'
              ? intl.formatMessage({ id: 'account.delete.wrongPassword', defaultMessage: 'That password is not right.' })
              : authErrorMessage(intl, result.error),
      );
      return;
    }
    // A fresh page: every cached query and the live connection belonged to the deleted person.
    window.location.assign('/');
  }

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} style={{ borderColor: 'var(--mantine-color-red-6)' }}>
      <Stack gap="sm">
        <Title order={2} size="h3">
          <FormattedMessage id="account.delete.title" defaultMessage="Delete account" />
        </Title>
        <Text size="sm">
          <FormattedMessage
            id="account.delete.intro"
            defaultMessage="Deleting your account signs you out everywhere and erases your name and email. Tickets you bought stay valid for the organizers' records but no longer show who you are. This cannot be undone."
          />
        </Text>
        <Group>
          <Button color="red" onClick={() => setOpened(true)}>
            <FormattedMessage id="account.delete.open" defaultMessage="Delete my account" />
          </Button>
        </Group>
      </Stack>
      <Modal
        opened={opened}
        onClose={close}
        title={intl.formatMessage({ id: 'account.delete.modalTitle', defaultMessage: 'Delete your account?' })}
      >
        <form onSubmit={(event) => void submit(event)}>
          <Stack>
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            {hasPassword ? (
              <PasswordInput
                label={intl.formatMessage({
                  id: 'account.delete.passwordLabel',
                  defaultMessage: 'Enter your password to confirm',
                })}
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
                autoComplete="current-password"
                data-autofocus
              />
            ) : (
              <TextInput
                label={intl.formatMessage(
                  { id: 'account.delete.typeLabel', defaultMessage: 'Type {word} to confirm' },
                  { word: confirmWord },
                )}
                value={typed}
                onChange={(event) => setTyped(event.currentTarget.value)}
                autoComplete="off"
                data-autofocus
              />
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                <FormattedMessage id="account.delete.cancel" defaultMessage="Keep my account" />
              </Button>
              <Button type="submit" color="red" loading={pending} disabled={!ready}>
                <FormattedMessage id="account.delete.confirm" defaultMessage="Delete account for good" />
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}
