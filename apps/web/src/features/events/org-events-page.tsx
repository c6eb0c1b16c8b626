import { AnchorLink, ButtonLink } from '../../lib/links';
import { orgEvents } from '@admit/shared/events';
import { myOrgs } from '@admit/shared/orgs';
import { Breadcrumbs, Card, Group, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLiveQuery } from '../../lib/live';
import { EmptyState, ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { ResponsivePicture } from '../../lib/picture';
import { PictureUpload } from '../../lib/picture-upload';
import { CreateEventForm } from './create-event-form';
import { EventStatusBadge } from './event-status-badge';
import { EventTime } from './event-time';

export function OrgEventsPage({ organizationId }: { organizationId: string }) {
  const intl = useIntl();
  const orgs = useLiveQuery(myOrgs, {});
  const org = orgs.rows?.find((row) => row.id === organizationId);
  usePageTitle(org && intl.formatMessage({ id: 'pageTitle.orgEvents', defaultMessage: 'Events of {name}' }, { name: org.name }));
  const { rows, isLoading, error } = useLiveQuery(orgEvents, { organizationId });
  const canCreate = org && org.role !== 'staff';
  return (
    <Stack gap="lg">
      <Breadcrumbs>
        <AnchorLink to="/manage">
          <FormattedMessage id="orgEvents.breadcrumb" defaultMessage="Organizations" />
        </AnchorLink>
        <Text>{org?.name}</Text>
      </Breadcrumbs>
      <Group justify="space-between" align="center">
        <Group gap="sm" wrap="nowrap">
          {org?.logo && (
            <ResponsivePicture picture={org.logo} alt="" crop="square" sizes="48px" style={{ width: 48, borderRadius: 8 }} />
          )}
          <Title order={1}>
            <FormattedMessage id="orgEvents.title" defaultMessage="Events of {name}" values={{ name: org?.name ?? '' }} />
          </Title>
        </Group>
        <Group gap="xs">
          {canCreate && (
            <ButtonLink to="/manage/orgs/$organizationId/analytics" params={{ organizationId }} variant="default">
              <FormattedMessage id="orgEvents.analytics" defaultMessage="Sales and visitors" />
            </ButtonLink>
          )}
          <ButtonLink to="/manage/orgs/$organizationId/members" params={{ organizationId }} variant="default">
            <FormattedMessage id="orgEvents.members" defaultMessage="Members" />
          </ButtonLink>
          {canCreate && (
            <ButtonLink to="/manage/orgs/$organizationId/api" params={{ organizationId }} variant="default">
              <FormattedMessage id="orgEvents.apiKeys" defaultMessage="API keys" />
            </ButtonLink>
          )}
        </Group>
      </Group>
      {error && <ErrorState error={error} />}
      {isLoading && !error && <PageLoader />}
      {rows && rows.length === 0 && (
        <EmptyState title={intl.formatMessage({ id: 'orgEvents.empty.title', defaultMessage: 'No events yet' })}>
          <FormattedMessage id="orgEvents.empty.body" defaultMessage="Create your first event below." />
        </EmptyState>
      )}
      {rows && rows.length > 0 && (
        <Stack component="ul" gap="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {rows.map((event) => (
            <Card component="li" key={event.id} withBorder padding="md">
              <Group justify="space-between" align="flex-start">
                <Stack gap={4}>
                  <AnchorLink to="/manage/events/$eventId" params={{ eventId: event.id }} fw={600}>
                    {event.title}
                  </AnchorLink>
                  <EventTime startsAt={event.startsAt} endsAt={event.endsAt} timeZone={event.timeZone} size="sm" />
                </Stack>
                <Stack gap={4} align="flex-end">
                  <EventStatusBadge status={event.status} />
                  <Text size="sm" c="dimmed">
                    <FormattedMessage
                      id="orgEvents.sold"
                      defaultMessage="{sold, number} of {capacity, number} taken"
                      values={{ sold: event.sold, capacity: event.capacity }}
                    />
                  </Text>
                </Stack>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      {canCreate && <CreateEventForm organizationId={organizationId} />}
      {canCreate && (
        <Card withBorder padding="lg">
          <Stack gap="sm">
            <Title order={2} size="h4">
              <FormattedMessage id="orgLogo.title" defaultMessage="Logo" />
            </Title>
            <Text size="sm" c="dimmed">
              <FormattedMessage
                id="orgLogo.body"
                defaultMessage="Shown next to your name on your events' pages, in emails and on tickets."
              />
            </Text>
            <PictureUpload
              endpoint={`/files/orgs/${encodeURIComponent(organizationId)}/logo`}
              current={org.logo}
              label={intl.formatMessage({ id: 'orgLogo.drop.label', defaultMessage: 'Logo of the organization' })}
              crops={['square']}
            />
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
