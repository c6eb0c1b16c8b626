import { orgAnalytics } from '@admit/shared/analytics';
import { Card, Stack, Table, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { AnchorLink, BackLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { formatMoney } from '../../lib/money';
import { EmptyState, ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { ScrollTable } from '../../lib/scroll-table';
import { AnalyticsNote, Figures } from './chart-section';
import { share } from './analytics-format';

/**
 * Every event of an organization with its visitors, conversion, sales and check-ins, live (admins
 * and owners). Revenue stays per event: events may sell in different currencies.
 */
export function OrgAnalyticsPage({ organizationId }: { organizationId: string }) {
  const intl = useIntl();
  const title = intl.formatMessage({ id: 'orgAnalytics.title', defaultMessage: 'Sales and visitors of all events' });
  usePageTitle(title);
  const { rows, error } = useLiveQuery(orgAnalytics, { organizationId });
  const number = (value: number) => intl.formatNumber(value);
  const sum = (pick: (row: NonNullable<typeof rows>[number]) => number) =>
    (rows ?? []).reduce((total, row) => total + pick(row), 0);
  const paid = (row: NonNullable<typeof rows>[number]) => row.funnel.find((step) => step.step === 'paid')?.visitors ?? 0;

  return (
    <Stack gap="lg">
      <BackLink to="/manage/orgs/$organizationId" params={{ organizationId }}>
        <FormattedMessage id="orgAnalytics.back" defaultMessage="Back to the events" />
      </BackLink>
      <Title order={1}>{title}</Title>
      {error && <ErrorState error={error} />}
      {!error && !rows && <PageLoader />}
      {rows && rows.length === 0 && (
        <EmptyState title={intl.formatMessage({ id: 'orgAnalytics.empty', defaultMessage: 'No events yet' })} />
      )}
      {rows && rows.length > 0 && (
        <>
          <Figures
            figures={[
              {
                label: intl.formatMessage({ id: 'analytics.views', defaultMessage: 'Views' }),
                value: number(sum((row) => row.totals.views)),
              },
              {
                label: intl.formatMessage({ id: 'analytics.visitors', defaultMessage: 'Visitors' }),
                value: number(sum((row) => row.totals.visitors)),
              },
              {
                label: intl.formatMessage({ id: 'analytics.tickets', defaultMessage: 'Tickets sold' }),
                value: number(sum((row) => row.totals.tickets)),
              },
              {
                label: intl.formatMessage({ id: 'analytics.checkedIn', defaultMessage: 'Checked in' }),
                value: number(sum((row) => row.totals.checkedIn)),
              },
            ]}
          />
          <AnalyticsNote />
          <Card withBorder padding="lg">
            <ScrollTable label={intl.formatMessage({ id: 'orgAnalytics.table', defaultMessage: 'Events' })} minWidth={640}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    {[
                      intl.formatMessage({ id: 'orgAnalytics.event', defaultMessage: 'Event' }),
                      intl.formatMessage({ id: 'analytics.visitors', defaultMessage: 'Visitors' }),
                      intl.formatMessage({ id: 'analytics.conversion', defaultMessage: 'Conversion' }),
                      intl.formatMessage({ id: 'analytics.tickets', defaultMessage: 'Tickets sold' }),
                      intl.formatMessage({ id: 'analytics.revenue', defaultMessage: 'Revenue' }),
                      intl.formatMessage({ id: 'analytics.checkedIn', defaultMessage: 'Checked in' }),
                    ].map((heading, index) => (
                      <Table.Th key={heading} ta={index === 0 ? undefined : 'end'}>
                        {heading}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row) => (
                    <Table.Tr key={row.id}>
                      <Table.Th scope="row" fw={400}>
                        <AnchorLink to="/manage/events/$eventId/analytics" params={{ eventId: row.id }} fw={600}>
                          {row.title}
                        </AnchorLink>
                        <Text size="xs" c="dimmed">
                          {intl.formatDate(row.startsAt, { dateStyle: 'medium', timeZone: row.timeZone })}
                        </Text>
                      </Table.Th>
                      <Table.Td ta="end">{number(row.totals.visitors)}</Table.Td>
                      <Table.Td ta="end">{share(intl, paid(row), row.totals.visitors)}</Table.Td>
                      <Table.Td ta="end">{number(row.totals.tickets)}</Table.Td>
                      <Table.Td ta="end">{formatMoney(intl.locale, row.totals.revenue, row.currency)}</Table.Td>
                      <Table.Td ta="end">{number(row.totals.checkedIn)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollTable>
          </Card>
        </>
      )}
    </Stack>
  );
}
