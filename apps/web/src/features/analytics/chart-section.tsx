import { Card, Group, SegmentedControl, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useId, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';

/**
 * What every bar chart in a `ChartSection` is given: the drawing is for the eye, so it takes no focus
 * (a focus stop inside aria-hidden content is one a screen reader cannot name). Its tooltips still
 * follow the mouse.
 */
export const drawingOnly = { accessibilityLayer: false } as const;

/**
 * A chart and the same numbers as a table. The chart is for the eye (hidden from screen readers);
 * the table is always there for them, and shown to everyone with the switch.
 */
export function ChartSection({
  title,
  chart,
  table,
  empty,
}: {
  title: ReactNode;
  chart: ReactNode;
  table: ReactNode;
  /** Said instead of the chart when there is nothing to draw yet. */
  empty?: ReactNode;
}) {
  const intl = useIntl();
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const titleId = useId();
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="md">
        <Group justify="space-between" align="center" gap="xs">
          <Title order={2} size="h4" id={titleId}>
            {title}
          </Title>
          {!empty && (
            <SegmentedControl
              size="xs"
              value={view}
              onChange={(value) => setView(value as 'chart' | 'table')}
              aria-label={intl.formatMessage({ id: 'analytics.view', defaultMessage: 'Show as' })}
              data={[
                { value: 'chart', label: intl.formatMessage({ id: 'analytics.view.chart', defaultMessage: 'Chart' }) },
                { value: 'table', label: intl.formatMessage({ id: 'analytics.view.table', defaultMessage: 'Table' }) },
              ]}
            />
          )}
        </Group>
        {empty ? (
          <Text c="dimmed" size="sm">
            {empty}
          </Text>
        ) : view === 'chart' ? (
          <>
            <div aria-hidden>{chart}</div>
            <VisuallyHidden>{table}</VisuallyHidden>
          </>
        ) : (
          table
        )}
      </Stack>
    </Card>
  );
}

/** The headline numbers, two per row on a phone. */
export function Figures({ figures }: { figures: { label: string; value: string }[] }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: figures.length }} spacing="sm" component="dl" m={0}>
      {figures.map((figure) => (
        <Card key={figure.label} withBorder padding="md">
          <Text component="dt" size="sm" c="dimmed">
            {figure.label}
          </Text>
          <Text component="dd" m={0} fw={700} fz="xl">
            {figure.value}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** How views become visitors become buyers, in words for the page's top. */
export function AnalyticsNote() {
  return (
    <Text size="sm" c="dimmed">
      <FormattedMessage
        id="analytics.note"
        defaultMessage="Views and visitors are counted about once a minute, each visitor at most once a minute; orders, sales and check-ins at once, so the steps from checkout on count real orders. Admit sets no cookie and keeps no address: a visitor is recognised for one day only, and browsers that ask not to be tracked are not counted."
      />
    </Text>
  );
}
