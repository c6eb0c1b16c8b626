import { contractRef } from '@admit/shared/contract-ref';
import type { publicEvent, PublicEventRow } from '@admit/shared/events';
import { localizeEvent } from '@admit/shared/localize-event';
import { directionOf } from '@admit/shared/locales';
import { CloseButton, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { useStep } from '../../lib/beacon';
import { tellHost } from '../../lib/embed-frame';
import { useEventLanguage } from '../../lib/event-language';
import { useLiveQuery } from '../../lib/live';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { EventTime } from './event-time';

const eventBySlug = contractRef<typeof publicEvent>('events.public');

/**
 * An event's checkout in another site's page (decision 0061): its title, time and place above its
 * tickets, nothing around them. Opened over the page (`dialog`), it can be closed with its button or
 * Escape, which the host page's dialog cannot hear from inside the frame.
 */
export function EmbeddedEvent({
  slug,
  dialog,
  tickets,
}: {
  slug: string;
  dialog: boolean;
  tickets: (event: PublicEventRow) => ReactNode;
}) {
  const intl = useIntl();
  const { rows, error } = useLiveQuery(eventBySlug, { slug });
  const asked = useEventLanguage();
  const shown = rows?.[0] && localizeEvent(rows[0], asked);
  usePageTitle(shown?.title);
  useStep(rows?.[0]?.id, 'view');
  useEffect(() => {
    if (!dialog) return;
    const onKey = (key: KeyboardEvent) => key.key === 'Escape' && tellHost({ admit: 'close' });
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [dialog]);
  if (error) return <ErrorState error={error} />;
  const event = rows?.[0];
  if (!event || !shown) return <PageLoader />;
  const content = { lang: shown.locale, dir: directionOf(shown.locale) };
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2}>
          <Title order={1} size="h3" {...content}>
            {shown.title}
          </Title>
          <EventTime startsAt={event.startsAt} endsAt={event.endsAt} timeZone={event.timeZone} />
          <Text size="sm" c="dimmed" {...content}>
            {shown.venue}
          </Text>
        </Stack>
        {dialog && (
          <CloseButton
            size="lg"
            aria-label={intl.formatMessage({ id: 'embed.close', defaultMessage: 'Close' })}
            onClick={() => tellHost({ admit: 'close' })}
          />
        )}
      </Group>
      {event.status !== 'cancelled' && tickets(event)}
    </Stack>
  );
}
