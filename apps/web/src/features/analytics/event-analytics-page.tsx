import { eventAnalytics, type EventAnalyticsRow } from '@admit/shared/analytics';
import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { BackLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { formatMoney } from '../../lib/money';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { ScrollTable } from '../../lib/scroll-table';
import { share, stepNames } from './analytics-format';
import { AnalyticsNote, ChartSection, drawingOnly, Figures } from './chart-section';
import { LabelledBars } from './labelled-bars';

const messages = defineMessages({
  views: { id: 'analytics.views', defaultMessage: 'Views' },
  visitors: { id: 'analytics.visitors', defaultMessage: 'Visitors' },
  tickets: { id: 'analytics.tickets', defaultMessage: 'Tickets sold' },
  revenue: { id: 'analytics.revenue', defaultMessage: 'Revenue' },
  checkedIn: { id: 'analytics.checkedIn', defaultMessage: 'Checked in' },
  sourceDirect: { id: 'analytics.source.direct', defaultMessage: 'Direct or unknown' },
  empty: { id: 'analytics.empty', defaultMessage: 'Nothing to show yet.' },
  funnelTable: { id: 'analytics.funnel.table', defaultMessage: 'Visitors per step' },
  step: { id: 'analytics.step', defaultMessage: 'Step' },
  ofViewers: { id: 'analytics.ofViewers', defaultMessage: 'Of those who viewed' },
  perDayTable: { id: 'analytics.perDay.table', defaultMessage: 'Per day' },
  day: { id: 'analytics.day', defaultMessage: 'Day' },
  byTypeTable: { id: 'analytics.byType.table', defaultMessage: 'Sales by ticket type' },
  ticketType: { id: 'analytics.ticketType', defaultMessage: 'Ticket type' },
  sourcesTable: { id: 'analytics.sources.table', defaultMessage: 'Visitors and buyers by source' },
  source: { id: 'analytics.source', defaultMessage: 'Source' },
  campaign: { id: 'analytics.campaign', defaultMessage: 'Campaign' },
  conversion: { id: 'analytics.conversion', defaultMessage: 'Conversion' },
  checkInsEmpty: { id: 'analytics.checkIns.empty', defaultMessage: 'No one has been admitted yet.' },
  checkInsTable: { id: 'analytics.checkIns.table', defaultMessage: 'Check-ins per quarter hour' },
  time: { id: 'analytics.time', defaultMessage: 'Time' },
});

/** A day of the event's zone (`2026-12-01`) as "1 Dec" in the viewer's language. */
const dayLabel = (intl: IntlShape, day: string) =>
  intl.formatDate(`${day}T12:00:00Z`, { day: 'numeric', month: 'short', timeZone: 'UTC' });

function SimpleTable({
  label,
  head,
  rows,
  minWidth = 280,
}: {
  label: string;
  head: ReactNode[];
  rows: ReactNode[][];
  minWidth?: number;
}) {
  return (
    <ScrollTable label={label} minWidth={minWidth}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            {head.map((cell, index) => (
              <Table.Th key={index} ta={index === 0 ? undefined : 'end'}>
                {cell}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={index}>
              {row.map((cell, column) =>
                column === 0 ? (
                  <Table.Th key={column} scope="row" fw={400}>
                    {cell}
                  </Table.Th>
                ) : (
                  <Table.Td key={column} ta="end" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {cell}
                  </Table.Td>
                ),
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

function Dashboard({ report }: { report: EventAnalyticsRow }) {
  const intl = useIntl();
  const money = (minor: number) => formatMoney(intl.locale, minor, report.currency);
  const number = (value: number) => intl.formatNumber(value);
  const viewed = report.funnel.find((row) => row.step === 'view')?.visitors ?? 0;
  const days = report.days.map((day) => ({ ...day, label: dayLabel(intl, day.day) }));
  const labels = {
    views: intl.formatMessage(messages.views),
    visitors: intl.formatMessage(messages.visitors),
    tickets: intl.formatMessage(messages.tickets),
    revenue: intl.formatMessage(messages.revenue),
    checkedIn: intl.formatMessage(messages.checkedIn),
  };
  const sourceName = (source: string) => source || intl.formatMessage(messages.sourceDirect);
  const nothingYet = intl.formatMessage(messages.empty);

  return (
    <>
      <Figures
        figures={[
          { label: labels.views, value: number(report.totals.views) },
          { label: labels.visitors, value: number(report.totals.visitors) },
          { label: labels.tickets, value: number(report.totals.tickets) },
          { label: labels.revenue, value: money(report.totals.revenue) },
          { label: labels.checkedIn, value: number(report.totals.checkedIn) },
        ]}
      />
      <AnalyticsNote />

      <ChartSection
        title={<FormattedMessage id="analytics.funnel" defaultMessage="From view to ticket" />}
        empty={viewed === 0 ? nothingYet : undefined}
        chart={
          <LabelledBars
            data={report.funnel.map((row) => ({ name: intl.formatMessage(stepNames[row.step]), value: row.visitors }))}
            valueFormatter={(value) => `${number(value)} · ${share(intl, value, viewed)}`}
            color="blue.3"
          />
        }
        table={
          <SimpleTable
            label={intl.formatMessage(messages.funnelTable)}
            head={[intl.formatMessage(messages.step), labels.visitors, intl.formatMessage(messages.ofViewers)]}
            rows={report.funnel.map((row) => [
              intl.formatMessage(stepNames[row.step]),
              number(row.visitors),
              share(intl, row.visitors, viewed),
            ])}
          />
        }
      />

      <ChartSection
        title={
          <FormattedMessage id="analytics.perDay" defaultMessage="Per day ({timeZone})" values={{ timeZone: report.timeZone }} />
        }
        empty={days.length === 0 ? nothingYet : undefined}
        chart={
          <Stack gap="lg">
            <BarChart
              h={220}
              data={days}
              dataKey="label"
              series={[
                { name: 'visitors', label: labels.visitors, color: 'blue.6' },
                { name: 'tickets', label: labels.tickets, color: 'teal.6' },
              ]}
              withLegend
              tickLine="y"
              barChartProps={drawingOnly}
              valueFormatter={number}
              yAxisProps={{ allowDecimals: false }}
            />
            <BarChart
              h={180}
              data={days}
              dataKey="label"
              series={[{ name: 'revenue', label: labels.revenue, color: 'grape.6' }]}
              withLegend
              tickLine="y"
              barChartProps={drawingOnly}
              valueFormatter={money}
              yAxisProps={{ width: 80 }}
            />
          </Stack>
        }
        table={
          <SimpleTable
            label={intl.formatMessage(messages.perDayTable)}
            minWidth={480}
            head={[intl.formatMessage(messages.day), labels.views, labels.visitors, labels.tickets, labels.revenue]}
            rows={days.map((day) => [
              day.label,
              number(day.views),
              number(day.visitors),
              number(day.tickets),
              money(day.revenue),
            ])}
          />
        }
      />

      <ChartSection
        title={<FormattedMessage id="analytics.byType" defaultMessage="By ticket type" />}
        empty={report.ticketTypes.length === 0 ? nothingYet : undefined}
        chart={
          <LabelledBars
            data={report.ticketTypes.map((row) => ({ name: row.name, value: row.tickets }))}
            valueFormatter={(value) => number(value)}
            color="teal.3"
          />
        }
        table={
          <SimpleTable
            label={intl.formatMessage(messages.byTypeTable)}
            head={[intl.formatMessage(messages.ticketType), labels.tickets, labels.revenue]}
            rows={report.ticketTypes.map((row) => [row.name, number(row.tickets), money(row.revenue)])}
          />
        }
      />

      <ChartSection
        title={<FormattedMessage id="analytics.sources" defaultMessage="Where buyers came from" />}
        empty={report.sources.length === 0 ? nothingYet : undefined}
        chart={
          <LabelledBars
            data={report.sources.map((row) => ({
              name: row.campaign ? `${sourceName(row.source)} · ${row.campaign}` : sourceName(row.source),
              value: row.visitors,
            }))}
            valueFormatter={(value) => number(value)}
            color="indigo.3"
          />
        }
        table={
          <SimpleTable
            label={intl.formatMessage(messages.sourcesTable)}
            minWidth={520}
            head={[
              intl.formatMessage(messages.source),
              intl.formatMessage(messages.campaign),
              labels.visitors,
              intl.formatMessage(stepNames.checkout),
              intl.formatMessage(stepNames.paid),
              intl.formatMessage(messages.conversion),
            ]}
            rows={report.sources.map((row) => [
              sourceName(row.source),
              row.campaign || '–',
              number(row.visitors),
              number(row.checkout),
              number(row.paid),
              share(intl, row.paid, row.visitors),
            ])}
          />
        }
      />

      <ChartSection
        title={<FormattedMessage id="analytics.checkIns" defaultMessage="Check-ins per quarter hour" />}
        empty={report.checkIns.length === 0 ? intl.formatMessage(messages.checkInsEmpty) : undefined}
        chart={
          <BarChart
            h={200}
            data={report.checkIns.map((slot) => ({ ...slot, label: slot.slot.slice(11) }))}
            dataKey="label"
            series={[{ name: 'admitted', label: labels.checkedIn, color: 'orange.6' }]}
            tickLine="y"
            barChartProps={drawingOnly}
            valueFormatter={number}
            yAxisProps={{ allowDecimals: false }}
          />
        }
        table={
          <SimpleTable
            label={intl.formatMessage(messages.checkInsTable)}
            head={[intl.formatMessage(messages.time), labels.checkedIn]}
            rows={report.checkIns.map((slot) => [
              `${dayLabel(intl, slot.slot.slice(0, 10))} ${slot.slot.slice(11)}`,
              number(slot.admitted),
            ])}
          />
        }
      />
    </>
  );
}

/** One event's visitors, funnel, sales and check-ins, live: for its admins and owners. */
export function EventAnalyticsPage({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const { rows, error } = useLiveQuery(eventAnalytics, { eventId });
  const report = rows?.[0];
  usePageTitle(
    report && intl.formatMessage({ id: 'analytics.tabTitle', defaultMessage: 'Sales of {title}' }, { title: report.title }),
  );
  return (
    <Stack gap="lg">
      <BackLink to="/manage/events/$eventId" params={{ eventId }}>
        <FormattedMessage id="analytics.back" defaultMessage="Back to the event" />
      </BackLink>
      <Title order={1}>
        <FormattedMessage id="analytics.title" defaultMessage="Sales and visitors" />
        {report && (
          <Text span display="block" fz="lg" c="dimmed" fw={400}>
            {report.title}
          </Text>
        )}
      </Title>
      {error && <ErrorState error={error} />}
      {!error && !report && <PageLoader />}
      {report && <Dashboard report={report} />}
    </Stack>
  );
}
