import { ButtonLink } from '../lib/links';
import { Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useLocation } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSession } from '../lib/session';
import { usePageTitle } from '../lib/page-title';

/** Shows its children to a signed-in person, and a way to sign in to everyone else. */
export function RequireSession({ children }: { children: ReactNode }) {
  const intl = useIntl();
  const session = useSession();
  if (session.isPending) {
    return (
      <Center py="xl">
        <Loader
          role="status"
          aria-label={intl.formatMessage({ id: 'session.loading', defaultMessage: 'Checking your session' })}
        />
      </Center>
    );
  }
  if (!session.data) return <SignInToContinue />;
  return children;
}

function SignInToContinue() {
  const intl = useIntl();
  const location = useLocation();
  usePageTitle(intl.formatMessage({ id: 'pageTitle.signInToContinue', defaultMessage: 'Sign in to continue' }));
  return (
    <Paper withBorder p="xl" maw={480} mx="auto" mt="xl">
      <Stack>
        <Title order={1} size="h2">
          <FormattedMessage id="session.required.title" defaultMessage="Sign in to continue" />
        </Title>
        <Text>
          <FormattedMessage id="session.required.body" defaultMessage="This page is for signed-in people." />
        </Text>
        <ButtonLink to="/sign-in" search={{ redirect: location.href }}>
          <FormattedMessage id="session.required.signIn" defaultMessage="Sign in" />
        </ButtonLink>
      </Stack>
    </Paper>
  );
}
