import { AnchorLink, ButtonLink } from '../lib/links';
import {
  ActionIcon,
  AppShell,
  Box,
  Burger,
  Container,
  Group,
  Menu,
  NativeSelect,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { shownContact } from '@admit/shared/people';
import { IconUser } from '@tabler/icons-react';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { Outlet, useNavigate } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { authClient, useSession } from '../lib/auth-client';
import { localeNames, locales, pseudoAvailable, useLocale, type Locale } from '../lib/i18n';
import { liveClient } from '../lib/live';
import { clearOfflineData } from '../lib/offline-cache';
import { AccountLanguage } from '../features/account/account-language';
import { NamePrompt } from '../features/account/display-name';
import { OfflineNotice } from './offline-notice';

function LocaleSwitcher() {
  const intl = useIntl();
  const { locale, setLocale, pseudo, setPseudo } = useLocale();
  const choices = locales.map((value) => ({ value: value as string, label: localeNames[value] }));
  // Development only: the pseudo-language that shows untranslated and clipped text (lib/pseudo-locale.ts).
  if (pseudoAvailable) choices.push({ value: 'pseudo', label: '[Pseudo]' });
  return (
    <NativeSelect
      aria-label={intl.formatMessage({ id: 'shell.language', defaultMessage: 'Language' })}
      value={pseudo ? 'pseudo' : locale}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setPseudo(value === 'pseudo');
        if (value !== 'pseudo') setLocale(value as Locale);
      }}
      data={choices}
      size="xs"
      w={110}
    />
  );
}

function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const session = useSession();
  return (
    <>
      <AnchorLink to="/" activeOptions={{ exact: true }} onClick={onNavigate} fw={500}>
        <FormattedMessage id="shell.nav.events" defaultMessage="Events" />
      </AnchorLink>
      {session.data && (
        <>
          <AnchorLink to="/tickets" onClick={onNavigate} fw={500}>
            <FormattedMessage id="shell.nav.myTickets" defaultMessage="My tickets" />
          </AnchorLink>
          <AnchorLink to="/manage" onClick={onNavigate} fw={500}>
            <FormattedMessage id="shell.nav.organize" defaultMessage="Organize" />
          </AnchorLink>
        </>
      )}
    </>
  );
}

function AccountMenu() {
  const intl = useIntl();
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  if (session.isPending) return null;
  if (!session.data) {
    return (
      <Group gap="xs">
        <ButtonLink to="/sign-in" variant="subtle" size="sm">
          <FormattedMessage id="shell.signIn" defaultMessage="Sign in" />
        </ButtonLink>
        <ButtonLink to="/sign-up" size="sm">
          <FormattedMessage id="shell.signUp" defaultMessage="Sign up" />
        </ButtonLink>
      </Group>
    );
  }
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
    await clearOfflineData(queryClient);
    liveClient.reconnect();
    await navigate({ to: '/' });
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={intl.formatMessage({ id: 'shell.account', defaultMessage: 'Account menu' })}>
          <ActionIcon component="span" variant="light" radius="xl" size="lg">
            {session.data.user.name.trim() ? (
              session.data.user.name.trim().slice(0, 1).toUpperCase()
            ) : (
              <IconUser size={18} aria-hidden />
            )}
          </ActionIcon>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {session.data.user.name.trim() && (
            <Text size="sm" fw={600} c="var(--mantine-color-text)">
              {session.data.user.name}
            </Text>
          )}
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {shownContact(session.data.user.email)}
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

export function Shell() {
  const intl = useIntl();
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { desktop: true, mobile: !opened } }}
      padding={0}
    >
      <AppShell.Header>
        <Container size="lg" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Group gap="lg" wrap="nowrap">
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label={intl.formatMessage({ id: 'shell.menu', defaultMessage: 'Open navigation' })}
              />
              <AnchorLink to="/" underline="never" c="inherit">
                <Text fw={800} size="xl" c="indigo.7">
                  <FormattedMessage id="shell.brand" defaultMessage="Admit" />
                </Text>
              </AnchorLink>
              <Group
                gap="md"
                visibleFrom="sm"
                component="nav"
                aria-label={intl.formatMessage({ id: 'shell.mainNav', defaultMessage: 'Main' })}
              >
                <NavLinks />
              </Group>
            </Group>
            <Group gap="sm" wrap="nowrap">
              {/* On a phone it is in the menu, leaving the header room for signing in and up. */}
              <Box visibleFrom="sm">
                <LocaleSwitcher />
              </Box>
              <AccountMenu />
            </Group>
          </Group>
        </Container>
      </AppShell.Header>
      {/* Rendered only while open, so that screen readers do not meet the navigation twice. */}
      {opened && (
        <AppShell.Navbar p="md" aria-label={intl.formatMessage({ id: 'shell.mobileNav', defaultMessage: 'Navigation' })}>
          <Stack>
            <NavLinks onNavigate={close} />
            <LocaleSwitcher />
          </Stack>
        </AppShell.Navbar>
      )}
      <AppShell.Main>
        <Container size="lg" py="md">
          <OfflineNotice />
          <NamePrompt />
          <AccountLanguage />
          <Outlet />
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
