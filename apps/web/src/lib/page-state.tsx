import { Alert, Center, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { useErrorMessage } from './error-message';

export function PageLoader() {
  const intl = useIntl();
  return (
    <Center py="xl">
      <Loader aria-label={intl.formatMessage({ id: 'page.loading', defaultMessage: 'Loading' })} />
    </Center>
  );
}

export function ErrorState({ error }: { error: unknown }) {
  const intl = useIntl();
  const message = useErrorMessage();
  return (
    <Alert
      color="red"
      role="alert"
      title={intl.formatMessage({ id: 'page.error', defaultMessage: 'This could not be shown' })}
      my="md"
    >
      {message(error)}
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
      bd="1px dashed var(--mantine-color-gray-4)"
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    >
      <Title order={3} size="h4">
        {title}
      </Title>
      {children && <Text c="dimmed">{children}</Text>}
    </Stack>
  );
}
