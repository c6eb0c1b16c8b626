import { shownContact } from '@admit/shared/people';
import {
  changeMemberRole,
  inviteMember,
  myOrgs,
  orgInvitations,
  orgMembers,
  removeMember,
  revokeInvitation,
  setRequireTwoFactor,
  transferOwnership,
  type InvitedRole,
  type MemberRow,
  type OrgRole,
} from '@admit/shared/orgs';
import {
  Alert,
  Badge,
  Breadcrumbs,
  Button,
  Card,
  Flex,
  Group,
  Modal,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSession } from '../../lib/session';
import { callFunction } from '../../lib/callable';
import { failureOfError, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';
import { AnchorLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { EmptyState, ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { ScrollTable } from '../../lib/scroll-table';
import { roleColors, roleNames } from './role-names';
import { WebhooksSection } from './webhooks-section';

// What each role may do here mirrors the server's rules (modules/orgs); the server still decides.
const mayInvite = (role: OrgRole | undefined) => role === 'owner' || role === 'admin';
const mayRemove = (role: OrgRole | undefined, target: MemberRow, selfId: string | undefined) =>
  target.role !== 'owner' && (target.userId === selfId || role === 'owner' || (role === 'admin' && target.role === 'staff'));

function useRoleOptions() {
  const intl = useIntl();
  return (['admin', 'staff'] as const).map((role) => ({ value: role, label: intl.formatMessage(roleNames[role]) }));
}

function InviteForm({ organizationId }: { organizationId: string }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const roleOptions = useRoleOptions();
  const form = useForm<{ organizationId: string; email: string; role: InvitedRole }>({
    initialValues: { organizationId, email: '', role: 'staff' },
    validate: validateWith(inviteMember.input, intl),
  });
  const mutation = useMutation({
    mutationFn: (values: typeof form.values) => callFunction(inviteMember, values),
    onSuccess: () => form.setFieldValue('email', ''),
  });
  return (
    <Card withBorder padding="lg">
      <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate>
        <Stack>
          <Title order={2} size="h4">
            <FormattedMessage id="members.invite.title" defaultMessage="Invite a member" />
          </Title>
          {/* Side by side from a tablet up; on a phone the address gets the whole width. */}
          <Flex direction={{ base: 'column', xs: 'row' }} gap="md" align={{ base: 'stretch', xs: 'flex-start' }}>
            <TextInput
              style={{ flex: 1 }}
              type="email"
              label={intl.formatMessage({ id: 'members.invite.email', defaultMessage: 'Email of the person to invite' })}
              required
              {...form.getInputProps('email')}
            />
            <Select
              label={intl.formatMessage({ id: 'members.invite.role', defaultMessage: 'Role' })}
              data={roleOptions}
              allowDeselect={false}
              w={{ base: '100%', xs: 200 }}
              {...form.getInputProps('role')}
            />
          </Flex>
          {mutation.error && (
            <Alert color="red" role="alert">
              {errorMessage(mutation.error)}
            </Alert>
          )}
          {mutation.isSuccess && (
            <Text size="sm" c="green" role="status">
              <FormattedMessage id="members.invite.sent" defaultMessage="Invitation sent." />
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={mutation.isPending}>
              <FormattedMessage id="members.invite.submit" defaultMessage="Send invitation" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function PendingInvitations({ organizationId }: { organizationId: string }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const { rows, error } = useLiveQuery(orgInvitations, { organizationId });
  const revoke = useMutation({ mutationFn: (invitationId: string) => callFunction(revokeInvitation, { invitationId }) });
  if (error) return <ErrorState error={error} />;
  if (!rows || rows.length === 0) return null;
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          <FormattedMessage id="members.invitations.title" defaultMessage="Pending invitations" />
        </Title>
        {revoke.error && (
          <Alert color="red" role="alert">
            {errorMessage(revoke.error)}
          </Alert>
        )}
        <Stack component="ul" gap="xs" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {rows.map((invitation) => (
            <Group component="li" key={invitation.id} justify="space-between">
              <Stack gap={0}>
                <Text fw={500}>{invitation.email}</Text>
                <Text size="sm" c="dimmed">
                  <FormattedMessage
                    id="members.invitations.detail"
                    defaultMessage="Invited as {role} by {inviter}, open until {expiresAt, date, medium}"
                    values={{
                      role: intl.formatMessage(roleNames[invitation.role]),
                      inviter: invitation.inviterName,
                      expiresAt: new Date(invitation.expiresAt),
                    }}
                  />
                </Text>
              </Stack>
              <Button
                variant="subtle"
                color="red"
                loading={revoke.isPending && revoke.variables === invitation.id}
                onClick={() => revoke.mutate(invitation.id)}
                aria-label={intl.formatMessage(
                  { id: 'members.invitations.revokeFor', defaultMessage: 'Revoke the invitation for {email}' },
                  { email: invitation.email },
                )}
              >
                <FormattedMessage id="members.invitations.revoke" defaultMessage="Revoke" />
              </Button>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}

/** The reason when an error says the caller needs a second factor first (see requireOrgRole and orgs.setRequireTwoFactor). */
function twoFactorReasonOf(error: unknown): 'member' | 'owner' | null {
  const reason = failureOfError(error)?.reason;
  return reason === 'two-factor-required' ? 'member' : reason === 'owner-two-factor-off' ? 'owner' : null;
}

function TwoFactorRequiredAlert({ reason }: { reason: 'member' | 'owner' }) {
  return (
    <Alert color="yellow" role="alert">
      <FormattedMessage
        id="members.twoFactor.required"
        defaultMessage="{reason, select, owner {Turn on two-factor authentication in <link>your account</link> first; then you can require it of your members.} other {This organization requires two-factor authentication. Turn it on in <link>your account</link>, then come back.}}"
        values={{ reason, link: (chunks) => <AnchorLink to="/account">{chunks}</AnchorLink> }}
      />
    </Alert>
  );
}

export function MembersPage({ organizationId }: { organizationId: string }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const roleOptions = useRoleOptions();
  const session = useSession();
  const selfId = session.data?.user.id;
  const orgs = useLiveQuery(myOrgs, {});
  const org = orgs.rows?.find((row) => row.id === organizationId);
  const myRole = org?.role;
  usePageTitle(org && intl.formatMessage({ id: 'pageTitle.members', defaultMessage: 'Members of {name}' }, { name: org.name }));
  const { rows, isLoading, error } = useLiveQuery(orgMembers, { organizationId });
  const [transferTo, setTransferTo] = useState<MemberRow | null>(null);

  const changeRole = useMutation({
    mutationFn: (input: { userId: string; role: InvitedRole }) => callFunction(changeMemberRole, { organizationId, ...input }),
  });
  const remove = useMutation({ mutationFn: (userId: string) => callFunction(removeMember, { organizationId, userId }) });
  const transfer = useMutation({
    mutationFn: (userId: string) => callFunction(transferOwnership, { organizationId, userId }),
    onSuccess: () => setTransferTo(null),
  });
  const requireTwoFactor = useMutation({
    mutationFn: (required: boolean) => callFunction(setRequireTwoFactor, { organizationId, required }),
  });
  const failure = changeRole.error ?? remove.error ?? requireTwoFactor.error;
  const twoFactorReason = twoFactorReasonOf(error) ?? twoFactorReasonOf(failure);
  const membersLabel = intl.formatMessage({ id: 'members.table', defaultMessage: 'Members' });

  return (
    <Stack gap="lg">
      <Breadcrumbs>
        <AnchorLink to="/manage">
          <FormattedMessage id="members.breadcrumb.orgs" defaultMessage="Organizations" />
        </AnchorLink>
        <AnchorLink to="/manage/orgs/$organizationId" params={{ organizationId }}>
          {org?.name}
        </AnchorLink>
        <Text>
          <FormattedMessage id="members.breadcrumb.members" defaultMessage="Members" />
        </Text>
      </Breadcrumbs>
      <Title order={1}>
        <FormattedMessage id="members.title" defaultMessage="Members of {name}" values={{ name: org?.name ?? '' }} />
      </Title>
      {myRole === 'owner' && org && (
        <Switch
          checked={org.requireTwoFactor}
          disabled={requireTwoFactor.isPending}
          onChange={(event) => requireTwoFactor.mutate(event.currentTarget.checked)}
          label={intl.formatMessage({
            id: 'members.twoFactor.switch',
            defaultMessage: 'Require two-factor authentication for all members',
          })}
          description={intl.formatMessage({
            id: 'members.twoFactor.description',
            defaultMessage: 'Members without it can do nothing in this organization until they turn it on in their account.',
          })}
        />
      )}
      {twoFactorReason && <TwoFactorRequiredAlert reason={twoFactorReason} />}
      {error && !twoFactorReasonOf(error) && <ErrorState error={error} />}
      {isLoading && !error && <PageLoader />}
      {failure && !twoFactorReasonOf(failure) && (
        <Alert color="red" role="alert">
          {errorMessage(failure)}
        </Alert>
      )}
      {rows && rows.length === 0 && (
        <EmptyState title={intl.formatMessage({ id: 'members.empty', defaultMessage: 'No members' })} />
      )}
      {rows && rows.length > 0 && (
        <ScrollTable label={membersLabel} minWidth={520}>
          <Table aria-label={membersLabel}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <FormattedMessage id="members.col.person" defaultMessage="Person" />
                </Table.Th>
                <Table.Th>
                  <FormattedMessage id="members.col.role" defaultMessage="Role" />
                </Table.Th>
                <Table.Th>
                  <FormattedMessage id="members.col.actions" defaultMessage="Actions" />
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => {
                const isSelf = row.userId === selfId;
                const ownerActs = myRole === 'owner' && row.role !== 'owner';
                return (
                  <Table.Tr key={row.id}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {row.name.trim() ||
                          (row.email ? (
                            shownContact(row.email)
                          ) : (
                            <FormattedMessage id="members.noName" defaultMessage="No name given yet" />
                          ))}
                      </Text>
                      {row.email && (
                        <Text size="xs" c="dimmed">
                          {shownContact(row.email)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {ownerActs ? (
                        <Select
                          size="xs"
                          w={150}
                          data={roleOptions}
                          value={row.role}
                          allowDeselect={false}
                          aria-label={intl.formatMessage(
                            { id: 'members.roleOf', defaultMessage: 'Role of {name}' },
                            { name: row.name },
                          )}
                          onChange={(role) => role && changeRole.mutate({ userId: row.userId, role: role as InvitedRole })}
                        />
                      ) : (
                        <Badge variant="light" color={roleColors[row.role]}>
                          {intl.formatMessage(roleNames[row.role])}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs">
                        {ownerActs && (
                          <Button size="xs" variant="default" onClick={() => setTransferTo(row)}>
                            <FormattedMessage id="members.makeOwner" defaultMessage="Make owner" />
                          </Button>
                        )}
                        {mayRemove(myRole, row, selfId) && (
                          <Button
                            size="xs"
                            variant="subtle"
                            color="red"
                            loading={remove.isPending && remove.variables === row.userId}
                            onClick={() => remove.mutate(row.userId)}
                            aria-label={
                              isSelf
                                ? undefined
                                : intl.formatMessage(
                                    { id: 'members.removeWho', defaultMessage: 'Remove {name}' },
                                    { name: row.name },
                                  )
                            }
                          >
                            {isSelf ? (
                              <FormattedMessage id="members.leave" defaultMessage="Leave the organization" />
                            ) : (
                              <FormattedMessage id="members.remove" defaultMessage="Remove" />
                            )}
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      {mayInvite(myRole) && <PendingInvitations organizationId={organizationId} />}
      {mayInvite(myRole) && <InviteForm organizationId={organizationId} />}
      <Modal
        opened={transferTo !== null}
        onClose={() => setTransferTo(null)}
        title={intl.formatMessage({ id: 'members.transfer.title', defaultMessage: 'Transfer ownership' })}
      >
        <Stack>
          <Text>
            <FormattedMessage
              id="members.transfer.body"
              defaultMessage="Make {name} the owner of {organization}? You will become an admin, and only the new owner can give ownership back."
              values={{ name: transferTo?.name ?? '', organization: org?.name ?? '' }}
            />
          </Text>
          {transfer.error && (
            <Alert color="red" role="alert">
              {errorMessage(transfer.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setTransferTo(null)}>
              <FormattedMessage id="members.transfer.cancel" defaultMessage="Cancel" />
            </Button>
            <Button color="red" loading={transfer.isPending} onClick={() => transferTo && transfer.mutate(transferTo.userId)}>
              <FormattedMessage id="members.transfer.confirm" defaultMessage="Transfer ownership" />
            </Button>
          </Group>
        </Stack>
      </Modal>
      {(myRole === 'owner' || myRole === 'admin') && <WebhooksSection organizationId={organizationId} />}
    </Stack>
  );
}
