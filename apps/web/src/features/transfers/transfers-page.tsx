import { managedEvent } from '@admit/shared/events';
import { transferSettings, type TransferSettingsRow } from '@admit/shared/transfers';
import { Card, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatMoment } from '../../lib/dates';
import { formatMoney } from '../../lib/money';
import { BackLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { TransferSettingsForm } from './transfer-settings-form';
import { TransfersTable } from './transfers-table';

/** The settings as saved: a new saving (here or by another admin) draws the form again from them. */
const savedKey = (settings: TransferSettingsRow) =>
  JSON.stringify([settings.enabled, settings.closesHoursBeforeStart, settings.resaleEnabled, settings.resaleFee]);

/**
 * An event's ticket transfers (its admins, decision 0065): whether holders may send their tickets
 * to someone else and until how long before the start, whether they may offer them back for resale
 * and for what fee (decision 0066), and the transfers made, live, with a way to withdraw one that waits.
 */
export function TransfersPage({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const event = useLiveQuery(managedEvent, { eventId });
  const settings = useLiveQuery(transferSettings, { eventId });
  const found = event.rows?.[0];
  const saved = settings.rows?.[0];
  usePageTitle(
    found &&
      intl.formatMessage({ id: 'transfers.tabTitle', defaultMessage: 'Ticket transfers for {title}' }, { title: found.title }),
  );
  const error = event.error ?? settings.error;
  return (
    <Stack gap="lg">
      <BackLink to="/manage/events/$eventId" params={{ eventId }}>
        <FormattedMessage id="transfers.back" defaultMessage="Back to the event" />
      </BackLink>
      <Title order={1}>
        <FormattedMessage id="transfers.title" defaultMessage="Ticket transfers" />
        {found && (
          <Text span display="block" fz="lg" c="dimmed" fw={400}>
            {found.title}
          </Text>
        )}
      </Title>
      <Text>
        <FormattedMessage
          id="transfers.intro"
          defaultMessage="A person who holds a ticket can send it to someone else by email. Once that person accepts, the ticket is issued to them with a new code, and the old code no longer admits. The money stays with the order that paid for it."
        />
      </Text>
      {error && <ErrorState error={error} />}
      {!error && (!found || !saved) && <PageLoader />}
      {found && saved && (
        <>
          <Card withBorder padding="lg">
            <Stack gap="sm">
              <Title order={2} size="h4">
                <FormattedMessage id="transfers.settings" defaultMessage="Settings" />
              </Title>
              {/* The saved settings' moment, outside the form drawn again on each saving: announced when it changes. */}
              <Text size="sm" role="status" data-testid="transfers-close">
                {saved.enabled && saved.closesAt ? (
                  <FormattedMessage
                    id="transfers.closesAt"
                    defaultMessage="Transfers close on {time}."
                    values={{
                      time: <time dateTime={saved.closesAt}>{formatMoment(intl.locale, saved.closesAt, found.timeZone)}</time>,
                    }}
                  />
                ) : saved.resaleEnabled ? (
                  <FormattedMessage id="transfers.offResaleOn" defaultMessage="Transfers are off: tickets cannot be sent on." />
                ) : (
                  <FormattedMessage
                    id="transfers.off"
                    defaultMessage="Transfers are off: tickets stay with whoever holds them."
                  />
                )}
              </Text>
              {saved.resaleEnabled && (
                <Text size="sm" role="status" data-testid="resale-terms">
                  <FormattedMessage
                    id="transfers.resaleOn"
                    defaultMessage="Holders may offer tickets of a sold-out type back at the price they paid; {fee} is kept from each refund."
                    values={{ fee: formatMoney(intl.locale, saved.resaleFee, found.currency) }}
                  />
                </Text>
              )}
              <TransferSettingsForm key={savedKey(saved)} eventId={eventId} currency={found.currency} settings={saved} />
            </Stack>
          </Card>
          <TransfersTable event={found} />
        </>
      )}
    </Stack>
  );
}
