import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useEffect, useSyncExternalStore } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ButtonLink } from '../lib/links';
import { usePageTitle } from '../lib/page-title';

const subscribeToNetwork = (changed: () => void) => {
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  return () => {
    window.removeEventListener('online', changed);
    window.removeEventListener('offline', changed);
  };
};

/** Whether the browser says it has no network; follows it as it changes. */
function useBrowserOffline() {
  return useSyncExternalStore(subscribeToNetwork, () => !navigator.onLine);
}

/**
 * What a route shows when it fails to render or load, in place of the router's own unstyled English
 * text: what happened, in the reader's language, and two ways on. With no network the likeliest cause
 * is a screen never opened before, whose code and rows this device does not have yet.
 */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const intl = useIntl();
  const router = useRouter();
  const offline = useBrowserOffline();
  usePageTitle(intl.formatMessage({ id: 'routeError.tabTitle', defaultMessage: 'Error' }));
  useEffect(() => console.error(error), [error]);

  const retry = () => {
    // Clears the error boundary, then loads the route again (its code, if that was what failed).
    reset();
    void router.invalidate();
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} maw={560} mx="auto" mt="xl" role="alert">
      <Stack gap="md">
        <Title order={1} size="h2">
          <FormattedMessage id="routeError.title" defaultMessage="This page could not be shown" />
        </Title>
        {offline ? (
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <IconCloudOff aria-hidden style={{ flexShrink: 0 }} />
            <Text>
              <FormattedMessage
                id="routeError.offline"
                defaultMessage="You are offline. A page needs the network the first time it is opened on this device; after that it opens without one. Try again once you are back online."
              />
            </Text>
          </Group>
        ) : (
          <Text>
            <FormattedMessage
              id="routeError.body"
              defaultMessage="Something went wrong while opening it. Try again, or go back to the start page."
            />
          </Text>
        )}
        <Group gap="sm">
          <Button onClick={retry}>
            <FormattedMessage id="routeError.retry" defaultMessage="Try again" />
          </Button>
          <ButtonLink to="/" variant="default" onClick={reset}>
            <FormattedMessage id="routeError.home" defaultMessage="Go to the start page" />
          </ButtonLink>
        </Group>
      </Stack>
    </Paper>
  );
}
