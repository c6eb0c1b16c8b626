import { AnchorLink, ButtonLink } from '../lib/links';
import { Box, Burger, Container, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { Suspense, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useHostHeight } from '../lib/embed-frame';
import { useSession } from '../lib/session';
import { localeNames, locales, pseudoAvailable, useLocale, type Locale } from '../lib/i18n';
import { lazyPart } from './lazy-screen';
import { OfflineNotice } from './offline-notice';
import plainField from '../lib/plain-field.module.css';
import classes from './shell.module.css';
import { useFocusOnNavigation } from './page-focus';

// What only a signed-in person sees comes in chunks of its own, after the first paint (decision 0042).
const SignedInMenu = lazyPart(async () => (await import('./account-menu')).SignedInMenu);
const NamePrompt = lazyPart(async () => (await import('../features/account/display-name')).NamePrompt);
const AccountLanguage = lazyPart(async () => (await import('../features/account/account-language')).AccountLanguage);

/** The prompts and the language sync a signed-in person gets on every page; nothing for a visitor. */
function SignedInExtras() {
  const session = useSession();
  if (!session.data) return null;
  return (
    <Suspense fallback={null}>
      <NamePrompt />
      <AccountLanguage />
    </Suspense>
  );
}

function LocaleSwitcher() {
  const intl = useIntl();
  const { locale, setLocale, pseudo, setPseudo } = useLocale();
  const choices = locales.map((value) => ({ value: value as string, label: localeNames[value] }));
  // Development only: the pseudo-language that shows untranslated and clipped text (lib/pseudo-locale.ts).
  if (pseudoAvailable) choices.push({ value: 'pseudo', label: '[Pseudo]' });
  return (
    <select
      className={`${plainField.field} ${classes.language}`}
      aria-label={intl.formatMessage({ id: 'shell.language', defaultMessage: 'Language' })}
      value={pseudo ? 'pseudo' : locale}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setPseudo(value === 'pseudo');
        if (value !== 'pseudo') setLocale(value as Locale);
      }}
    >
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}

/** The header's buttons keep their words on one line (app.css lets other buttons wrap). */
const oneLine = { label: { whiteSpace: 'nowrap' } } as const;

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
  const session = useSession();
  if (session.isPending) return null;
  if (!session.data) {
    // One line, whatever the language: the header is one line high.
    return (
      <Group gap="xs" wrap="nowrap">
        <ButtonLink to="/sign-in" variant="subtle" size="sm" px="xs" styles={oneLine}>
          <FormattedMessage id="shell.signIn" defaultMessage="Sign in" />
        </ButtonLink>
        <ButtonLink to="/sign-up" size="sm" styles={oneLine}>
          <FormattedMessage id="shell.signUp" defaultMessage="Sign up" />
        </ButtonLink>
      </Group>
    );
  }
  return (
    <Suspense fallback={null}>
      <SignedInMenu user={session.data.user} />
    </Suspense>
  );
}

/** The checkout in another site's frame (/embed/…, decision 0061): the page alone, as tall as it is. */
function EmbeddedShell() {
  const main = useRef<HTMLElement>(null);
  useHostHeight(main);
  return (
    <main className={classes.embedded} ref={main}>
      <OfflineNotice />
      <Outlet />
    </main>
  );
}

export function Shell() {
  const embedded = useRouterState({ select: (state) => state.location.pathname.startsWith('/embed/') });
  return embedded ? <EmbeddedShell /> : <AppShell />;
}

function AppShell() {
  const intl = useIntl();
  const [opened, { toggle, close }] = useDisclosure(false);
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigation(main);
  return (
    <>
      <header className={classes.header}>
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
                <Text fw={800} size="xl" c="indigo">
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
      </header>
      {/* Rendered only while open, so that screen readers do not meet the navigation twice. */}
      {opened && (
        <nav className={classes.navbar} aria-label={intl.formatMessage({ id: 'shell.mobileNav', defaultMessage: 'Navigation' })}>
          <Stack>
            <NavLinks onNavigate={close} />
            <LocaleSwitcher />
          </Stack>
        </nav>
      )}
      <main className={classes.main} ref={main}>
        <Container size="lg" py="md">
          <OfflineNotice />
          <SignedInExtras />
          <Outlet />
          <Box component="footer" mt="xl" pt="md" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
            <AnchorLink to="/accessibility" size="sm" c="dimmed">
              <FormattedMessage id="shell.accessibility" defaultMessage="Accessibility" />
            </AnchorLink>
          </Box>
        </Container>
      </main>
    </>
  );
}
