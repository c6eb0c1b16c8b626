import { shownContact } from '@admit/shared/people';
import { ActionIcon, Menu, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUser } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { authClient } from '../lib/auth-client';
import type { SignedIn } from '../lib/session';
import { liveClient } from '../lib/live';
import { forgetOfflineData } from '../lib/offline-person';

/**
 * The signed-in person's menu in the header. Its own chunk: a visitor on a public page never opens
 * it, and it brings the menu's popover and the phone number formatting (decision 0042).
 */
export function SignedInMenu({ user }: { user: SignedIn['user'] }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = async () => {
    // Writes still waiting for the network (door scans) would be lost: they need this session.
    // (Counted when asked, not watched: the menu is not re-rendered for every scan at a door.)
    const waiting = queryClient.getMutationCache().findAll({ status: 'pending' }).length;
    if (waiting > 0) {
      notifications.show({
        color: 'orange',
        message: intl.formatMessage(
          {
            id: 'shell.signOut.waiting',
            defaultMessage:
              '{count, plural, one {# scan is} other {# scans are}} still waiting for the network. Sign out once they have synced.',
          },
          { count: waiting },
        ),
      });
      return;
    }
    // Whether or not the server can be reached: this device forgets the person now.
    await authClient.signOut().catch(() => undefined);
    await forgetOfflineData(queryClient);
    liveClient.reconnect();
    await navigate({ to: '/' });
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={intl.formatMessage({ id: 'shell.account', defaultMessage: 'Account menu' })}>
          <ActionIcon component="span" variant="light" radius="xl" size="lg">
            {user.name.trim() ? user.name.trim().slice(0, 1).toUpperCase() : <IconUser size={18} aria-hidden />}
          </ActionIcon>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {user.name.trim() && (
            <Text size="sm" fw={600} c="var(--mantine-color-text)">
              {user.name}
            </Text>
          )}
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {shownContact(user.email)}
          </Text>
        </Menu.Label>
        <Menu.Item onClick={() => void navigate({ to: '/account' })}>
          <FormattedMessage id="shell.accountPage" defaultMessage="Account" />
        </Menu.Item>
        <Menu.Item onClick={() => void signOut()}>
          <FormattedMessage id="shell.signOut" defaultMessage="Sign out" />
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
