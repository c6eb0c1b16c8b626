import { managedTicketTypes } from '@admit/shared/event-changes';
import { managedEvent } from '@admit/shared/events';
import { waitlistSettings, type WaitlistSettingsRow } from '@admit/shared/waitlist';
import { Card, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { BackLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { WaitlistSettingsForm } from './waitlist-settings-form';
import { WaitlistTable } from './waitlist-table';

/**
 * The settings as saved: a new saving (here or by another admin) draws the form again from them.
 * The types people wait for change as they join, and leave the form as it is.
 */
const savedKey = (settings: WaitlistSettingsRow) =>
  JSON.stringify([settings.enabled, settings.ticketTypeIds, settings.offerHours, settings.partialOffers, settings.presale]);

/**
 * An event's waiting list (its admins, decision 0064): whether it is open and for which ticket
 * types, how long an offer holds, and the people on it, live, with offers and removals by hand.
 */
export function WaitlistPage({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const event = useLiveQuery(managedEvent, { eventId });
  const types = useLiveQuery(managedTicketTypes, { eventId });
  const settings = useLiveQuery(waitlistSettings, { eventId });
  const found = event.rows?.[0];
  const saved = settings.rows?.[0];
  usePageTitle(
    found && intl.formatMessage({ id: 'waitlist.tabTitle', defaultMessage: 'Waiting list for {title}' }, { title: found.title }),
  );
  const error = event.error ?? types.error ?? settings.error;
  return (
    <Stack gap="lg">
      <BackLink to="/manage/events/$eventId" params={{ eventId }}>
        <FormattedMessage id="waitlist.back" defaultMessage="Back to the event" />
      </BackLink>
      <Title order={1}>
        <FormattedMessage id="waitlist.title" defaultMessage="Waiting list" />
        {found && (
          <Text span display="block" fz="lg" c="dimmed" fw={400}>
            {found.title}
          </Text>
        )}
      </Title>
      <Text>
        <FormattedMessage
          id="waitlist.intro"
          defaultMessage="When a ticket type is sold out, people can join its waiting list. Places that come free later (a refund, an order left unpaid) are offered to them in the order they joined, before anyone else can buy them, and held for them while they pay."
        />
      </Text>
      {error && <ErrorState error={error} />}
      {!error && (!found || !types.rows || !saved) && <PageLoader />}
      {found && types.rows && saved && (
        <>
          <Card withBorder padding="lg">
            <Stack gap="sm">
              <Title order={2} size="h4">
                <FormattedMessage id="waitlist.settings" defaultMessage="Settings" />
              </Title>
              <WaitlistSettingsForm key={savedKey(saved)} eventId={eventId} settings={saved} types={types.rows} />
            </Stack>
          </Card>
          <WaitlistTable event={found} types={types.rows} />
        </>
      )}
    </Stack>
  );
}
