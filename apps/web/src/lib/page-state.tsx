import { Alert, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { lazy, Suspense, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';

// An error's sentence knows every reason any capability gives and parses its details with their
// schemas (lib/error-message.ts): it loads when an error first shows, not with the public pages
// (decision 0050).
const LazyErrorSentence = lazy(async () => ({ default: (await import('./error-message')).ErrorSentence }));

/** An error's sentence, in its language, once its messages are in (nothing until then). */
export function ErrorSentence({ error }: { error: unknown }) {
  return (
    <Suspense fallback={null}>
      <LazyErrorSentence error={error} />
    </Suspense>
  );
}

export function PageLoader() {
  const intl = useIntl();
  return (
    <Center py="xl">
      <Loader role="status" aria-label={intl.formatMessage({ id: 'page.loading', defaultMessage: 'Loading' })} />
    </Center>
  );
}

/**
 * In place of a spinner, for what only the server can answer and this device does not keep (TanStack
 * Query pauses such a query with no network): it comes once the network is back.
 */
export function NeedsNetwork() {
  return (
    <Group gap="xs" c="dimmed" wrap="nowrap" py="sm">
      <IconCloudOff size={18} aria-hidden style={{ flexShrink: 0 }} />
      <Text size="sm">
        <FormattedMessage id="page.needsNetwork" defaultMessage="Shown once you are back online." />
      </Text>
    </Group>
  );
}

export function ErrorState({ error }: { error: unknown }) {
  const intl = useIntl();
  return (
    <Alert
      color="red"
      role="alert"
      title={intl.formatMessage({ id: 'page.error', defaultMessage: 'This could not be shown' })}
      my="md"
    >
      <ErrorSentence error={error} />
    </Alert>
  );
}

export function EmptyState({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <Stack
      align="center"
      gap="xs"
      py="xl"
      px="md"
      ta="center"
      bd="1px dashed var(--mantine-color-default-border)"
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    >
      <Title order={3} size="h4">
        {title}
      </Title>
      {children && <Text c="dimmed">{children}</Text>}
    </Stack>
  );
}
