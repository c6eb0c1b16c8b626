import { AnchorLink } from '../../lib/links';
import { contractRef } from '@admit/shared/contract-ref';
import type { publishedEvents } from '@admit/shared/events';
import { localizeEvent } from '@admit/shared/localize-event';
import { directionOf } from '@admit/shared/locales';
import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { useEventLanguage } from '../../lib/event-language';
import { useFontsFor } from '../../lib/fonts/use-fonts-for';
import { useLiveQuery } from '../../lib/live';
import { EmptyState, ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { ResponsivePicture } from '../../lib/picture';
import { EventTime } from './event-time';
import classes from './public-pages.module.css';

// By name, so that the first load carries no schemas (decision 0050).
const published = contractRef<typeof publishedEvents>('events.published');

export function HomePage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'pageTitle.home', defaultMessage: 'Events' }));
  const { rows, isLoading, error } = useLiveQuery(published, {});
  const language = useEventLanguage();
  useFontsFor(
    ...(rows ?? []).map((event) => {
      const shown = localizeEvent(event, language);
      return `${shown.title} ${shown.venue} ${event.organizationName}`;
    }),
  );
  return (
    <Stack gap="xl">
      <Stack gap="xs" py={{ base: 'md', sm: 'xl' }}>
        <Title order={1} fz={{ base: 28, sm: 40 }}>
          <FormattedMessage id="home.title" defaultMessage="Tickets for what's on, and a quick way in at the door." />
        </Title>
        <Text size="lg" c="dimmed" maw={640}>
          <FormattedMessage
            id="home.subtitle"
            defaultMessage="Find an event, take your tickets in a few taps, and show the QR code at the door."
          />
        </Text>
      </Stack>
      <Stack gap="md">
        <Title order={2} size="h3">
          <FormattedMessage id="home.upcoming" defaultMessage="Upcoming events" />
        </Title>
        {error && <ErrorState error={error} />}
        {isLoading && <PageLoader />}
        {rows && rows.length === 0 && (
          <EmptyState title={intl.formatMessage({ id: 'home.empty.title', defaultMessage: 'No events on sale right now' })}>
            <FormattedMessage id="home.empty.body" defaultMessage="Organizers: sign in and choose Organize to create one." />
          </EmptyState>
        )}
        {rows && rows.length > 0 && (
          <ul className={classes.cards}>
            {rows.map((event) => {
              // Each event in the visitor's language when it has it, else in its main language.
              const shown = localizeEvent(event, language);
              const content = { lang: shown.locale, dir: directionOf(shown.locale) };
              return (
                <Card component="li" key={event.id} withBorder padding="lg">
                  {event.cover && (
                    <Card.Section mb="sm">
                      <ResponsivePicture
                        picture={event.cover}
                        alt=""
                        crop="wide"
                        sizes="(min-width: 62em) 360px, (min-width: 48em) 50vw, 100vw"
                      />
                    </Card.Section>
                  )}
                  <Stack gap="xs">
                    <Text size="sm" c="dimmed">
                      {event.organizationName}
                    </Text>
                    <AnchorLink to="/e/$slug" params={{ slug: event.slug }} fw={700} size="lg" {...content}>
                      {shown.title}
                    </AnchorLink>
                    <EventTime startsAt={event.startsAt} endsAt={event.endsAt} timeZone={event.timeZone} size="sm" />
                    <Text size="sm" {...content}>
                      {shown.venue}
                    </Text>
                    <Group>
                      {event.remaining === 0 && event.resale > 0 ? (
                        <Badge color="yellow" variant="light">
                          <FormattedMessage
                            id="home.resaleLeft"
                            defaultMessage="{count, plural, one {# ticket offered back} other {# tickets offered back}}"
                            values={{ count: event.resale }}
                          />
                        </Badge>
                      ) : event.remaining === 0 ? (
                        <Badge color="red" variant="light">
                          <FormattedMessage id="home.soldOut" defaultMessage="Sold out" />
                        </Badge>
                      ) : (
                        <Badge color="green" variant="light">
                          <FormattedMessage
                            id="home.remaining"
                            defaultMessage="{count, plural, one {# place left} other {# places left}}"
                            values={{ count: event.remaining }}
                          />
                        </Badge>
                      )}
                    </Group>
                  </Stack>
                </Card>
              );
            })}
          </ul>
        )}
      </Stack>
    </Stack>
  );
}
