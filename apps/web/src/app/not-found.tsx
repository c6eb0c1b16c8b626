import { ButtonLink } from '../lib/links';
import { usePageTitle } from '../lib/page-title';
import { Stack, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';

export function NotFound() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'pageTitle.notFound', defaultMessage: 'Page not found' }));
  return (
    <Stack align="center" py="xl" gap="md">
      <Title order={1}>
        <FormattedMessage id="notFound.title" defaultMessage="Page not found" />
      </Title>
      <Text c="dimmed">
        <FormattedMessage id="notFound.body" defaultMessage="The address may be mistyped, or the page may have moved." />
      </Text>
      <ButtonLink to="/">
        <FormattedMessage id="notFound.home" defaultMessage="Go to the start page" />
      </ButtonLink>
    </Stack>
  );
}
