import { contractRef } from '@admit/shared/contract-ref';
import type { publicEvent, PublicEventRow } from '@admit/shared/events';
import { localizeEvent } from '@admit/shared/localize-event';
import { directionOf } from '@admit/shared/locales';
import { Alert, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useStep } from '../../lib/beacon';
import { useEventLanguage } from '../../lib/event-language';
import { useFontsFor } from '../../lib/fonts/use-fonts-for';
import { useLiveQuery } from '../../lib/live';
import { ResponsivePicture } from '../../lib/picture';
import { usePageTitle } from '../../lib/page-title';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { EventLanguageSwitch } from './event-language-switch';
import { EventStatusBadge } from './event-status-badge';
import { EventTime } from './event-time';
import classes from './public-pages.module.css';

// By name, so that the first load carries no schemas (decision 0050).
const eventBySlug = contractRef<typeof publicEvent>('events.public');

export function PublicEventPage({ slug, tickets }: { slug: string; tickets: (event: PublicEventRow) => ReactNode }) {
  const intl = useIntl();
  const { rows, error } = useLiveQuery(eventBySlug, { slug });
  // The event's words in the language asked for when it has them, else in its main language.
  const asked = useEventLanguage();
  const shown = rows?.[0] && localizeEvent(rows[0], asked);
  const content = shown && { lang: shown.locale, dir: directionOf(shown.locale) };
  usePageTitle(shown?.title);
  useFontsFor(shown?.title, shown?.description, shown?.venue, rows?.[0]?.organizationName);
  useStep(rows?.[0]?.id, 'view');
  if (error) return <ErrorState error={error} />;
  const event = rows?.[0];
  if (!event || !shown) return <PageLoader />;
  return (
    <div className={classes.event}>
      {event.cover && (
        <div className={classes.across}>
          <ResponsivePicture
            picture={event.cover}
            alt=""
            crop="wide"
            sizes="(min-width: 75em) 1140px, 100vw"
            priority
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
        </div>
      )}
      <div>
        <Stack gap="md">
          <Group gap="xs">
            {event.organizationLogo && (
              <ResponsivePicture
                picture={event.organizationLogo}
                alt=""
                crop="square"
                sizes="32px"
                style={{ width: 32, borderRadius: 6 }}
              />
            )}
            <Text c="dimmed" size="sm">
              {event.organizationName}
            </Text>
            {event.status !== 'published' && <EventStatusBadge status={event.status} />}
          </Group>
          <EventLanguageSwitch event={event} slug={slug} shown={shown.locale} />
          <Title order={1} {...content}>
            {shown.title}
          </Title>
          {event.status === 'draft' && (
            <Alert color="yellow">
              <FormattedMessage
                id="event.draftPreview"
                defaultMessage="This is a preview: the event is a draft and only your organization can see it."
              />
            </Alert>
          )}
          {event.status === 'cancelled' && (
            <Alert
              color="red"
              role="status"
              title={<FormattedMessage id="event.cancelled.title" defaultMessage="This event is cancelled" />}
            >
              <FormattedMessage
                id="event.cancelled.body"
                defaultMessage="The organizer cancelled it. Everyone who bought a ticket gets their money back in full and an email about it."
              />
            </Alert>
          )}
          <Card withBorder padding="md">
            <Stack gap="sm">
              <div>
                <Text size="xs" tt="uppercase" c="dimmed" fw={700}>
                  <FormattedMessage id="event.when" defaultMessage="When" />
                </Text>
                <EventTime startsAt={event.startsAt} endsAt={event.endsAt} timeZone={event.timeZone} />
              </div>
              <div>
                <Text size="xs" tt="uppercase" c="dimmed" fw={700}>
                  <FormattedMessage id="event.where" defaultMessage="Where" />
                </Text>
                <Text fw={500} {...content}>
                  {shown.venue}
                </Text>
              </div>
              {event.status !== 'cancelled' && (
                <Group gap="xs">
                  {event.remaining === 0 && event.resale > 0 ? (
                    <Text size="sm" c="dimmed" aria-live="polite">
                      <FormattedMessage
                        id="event.resaleLeft"
                        defaultMessage="Sold out; {count, plural, one {# ticket} other {# tickets}} offered back at face value"
                        values={{ count: event.resale }}
                      />
                    </Text>
                  ) : event.remaining === 0 ? (
                    <Badge color="red" variant="light">
                      <FormattedMessage id="event.soldOut" defaultMessage="Sold out" />
                    </Badge>
                  ) : (
                    <Text size="sm" c="dimmed" aria-live="polite">
                      <FormattedMessage
                        id="event.placesLeft"
                        defaultMessage="{count, plural, one {# place left} other {# places left}}"
                        values={{ count: event.remaining }}
                      />
                    </Text>
                  )}
                </Group>
              )}
            </Stack>
          </Card>
          {shown.description && (
            <Stack gap={4}>
              <Title order={2} size="h4">
                <FormattedMessage id="event.about" defaultMessage="About this event" />
              </Title>
              <Text style={{ whiteSpace: 'pre-wrap' }} {...content}>
                {shown.description}
              </Text>
            </Stack>
          )}
        </Stack>
      </div>
      <div>
        <section aria-label={intl.formatMessage({ id: 'event.ticketsSection', defaultMessage: 'Tickets' })}>
          {event.status !== 'cancelled' && tickets(event)}
        </section>
      </div>
    </div>
  );
}
