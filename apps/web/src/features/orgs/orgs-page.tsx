import { AnchorLink } from '../../lib/links';
import { acceptInvitation, createOrg, declineInvitation, myInvitations, myOrgs } from '@admit/shared/orgs';
import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';
import { useLiveQuery } from '../../lib/live';
import { EmptyState, ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { roleNames } from './role-names';

/** Pending invitations addressed to the signed-in person's email, to accept or decline. */
function InvitationsForYou() {
  const errorMessage = useErrorMessage();
  const { rows } = useLiveQuery(myInvitations, {});
  const answer = useMutation({
    mutationFn: ({ invitationId, accept }: { invitationId: string; accept: boolean }) =>
      callFunction(accept ? acceptInvitation : declineInvitation, { invitationId }),
  });
  if (!rows || rows.length === 0) return null;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="invitations-for-you">
      <Stack gap="sm">
        <Title order={2} size="h4" id="invitations-for-you">
          <FormattedMessage id="orgs.invitations.title" defaultMessage="Invitations for you" />
        </Title>
        {answer.error && (
          <Alert color="red" role="alert">
            {errorMessage(answer.error)}
          </Alert>
        )}
        <Stack component="ul" gap="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {rows.map((invitation) => (
            <Group component="li" key={invitation.id} justify="space-between">
              <Text>
                <FormattedMessage
                  id="orgs.invitations.body"
                  defaultMessage="{inviter} invited you to join {organization} as {role, select, admin {an admin} other {door staff}}."
                  values={{ inviter: invitation.inviterName, organization: invitation.organizationName, role: invitation.role }}
                />
              </Text>
              <Group gap="xs">
                <Button
                  size="xs"
                  loading={answer.isPending && answer.variables.invitationId === invitation.id && answer.variables.accept}
                  onClick={() => answer.mutate({ invitationId: invitation.id, accept: true })}
                >
                  <FormattedMessage id="orgs.invitations.accept" defaultMessage="Accept" />
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  loading={answer.isPending && answer.variables.invitationId === invitation.id && !answer.variables.accept}
                  onClick={() => answer.mutate({ invitationId: invitation.id, accept: false })}
                >
                  <FormattedMessage id="orgs.invitations.decline" defaultMessage="Decline" />
                </Button>
              </Group>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}

function CreateOrgForm() {
  const intl = useIntl();
  const navigate = useNavigate();
  const errorMessage = useErrorMessage();
  const form = useForm({ initialValues: { name: '' }, validate: validateWith(createOrg.input, intl) });
  const mutation = useMutation({
    mutationFn: (name: string) => callFunction(createOrg, { name }),
    onSuccess: ({ organizationId }) => navigate({ to: '/manage/orgs/$organizationId', params: { organizationId } }),
  });
  return (
    <Card withBorder padding="lg">
      <form onSubmit={form.onSubmit((values) => mutation.mutate(values.name))} noValidate>
        <Stack>
          <Title order={2} size="h4">
            <FormattedMessage id="orgs.create.title" defaultMessage="Create an organization" />
          </Title>
          <Text size="sm" c="dimmed">
            <FormattedMessage
              id="orgs.create.hint"
              defaultMessage="An organization runs events: a club, a venue, a festival. You will be its owner."
            />
          </Text>
          <TextInput
            label={intl.formatMessage({ id: 'orgs.create.name', defaultMessage: 'Organization name' })}
            required
            {...form.getInputProps('name')}
            error={form.errors.name ?? (mutation.error ? errorMessage(mutation.error) : undefined)}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={mutation.isPending}>
              <FormattedMessage id="orgs.create.submit" defaultMessage="Create organization" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

export function OrgsPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'pageTitle.orgs', defaultMessage: 'Organizations' }));
  const { rows, isLoading, error } = useLiveQuery(myOrgs, {});
  return (
    <Stack gap="lg">
      <Title order={1}>
        <FormattedMessage id="orgs.title" defaultMessage="Your organizations" />
      </Title>
      <InvitationsForYou />
      {error && <ErrorState error={error} />}
      {isLoading && <PageLoader />}
      {rows && rows.length === 0 && (
        <EmptyState title={intl.formatMessage({ id: 'orgs.empty.title', defaultMessage: 'No organizations yet' })}>
          <FormattedMessage id="orgs.empty.body" defaultMessage="Create one below to start selling tickets." />
        </EmptyState>
      )}
      {rows && rows.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} component="ul" style={{ listStyle: 'none', padding: 0 }}>
          {rows.map((org) => (
            <Card component="li" key={org.id} withBorder padding="lg">
              <Group justify="space-between" wrap="nowrap">
                <AnchorLink to="/manage/orgs/$organizationId" params={{ organizationId: org.id }} fw={600} size="lg">
                  {org.name}
                </AnchorLink>
                <Badge variant="light">{intl.formatMessage(roleNames[org.role])}</Badge>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <CreateOrgForm />
    </Stack>
  );
}
