import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { authClient } from '../../lib/auth-client';
import { liveClient } from '../../lib/live';
import { ErrorState, NeedsNetwork, PageLoader } from '../../lib/page-state';
import { authErrorMessage } from './auth-error';
import { deviceOf } from './device-name';

const sessionsKey = ['account', 'sessions'];

/** A session as list-sessions gives it: without its token, which page scripts never see. */
interface SessionRow {
  id: string;
  userAgent?: string | null;
  ipAddress?: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}

/** Signs another device out by its session's id (the server's revoke-session-by-id). */
const revokeSession = (sessionId: string) => authClient.$fetch('/revoke-session-by-id', { method: 'POST', body: { sessionId } });

function useSessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: async (): Promise<SessionRow[]> => {
      const result = await authClient.listSessions();
      if (result.error) throw new Error(result.error.message ?? 'Could not list sessions');
      return result.data;
    },
  });
}

/** "Chrome on Linux", or what can be told of the device. */
function deviceName(intl: IntlShape, userAgent?: string | null): string {
  const device = deviceOf(userAgent);
  if (device?.browser && device.os)
    return intl.formatMessage(
      { id: 'account.sessions.device', defaultMessage: '{browser} on {os}' },
      { browser: device.browser, os: device.os },
    );
  return (
    device?.browser ??
    device?.os ??
    intl.formatMessage({ id: 'account.sessions.unknownDevice', defaultMessage: 'Unknown device' })
  );
}

export function SessionsList({ currentSessionId }: { currentSessionId: string | null }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const sessions = useSessions();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const dateTime = (value: Date | string) => intl.formatDate(new Date(value), { dateStyle: 'medium', timeStyle: 'short' });

  async function run(key: string, action: () => Promise<{ error: { code?: string; status?: number } | null }>) {
    setBusy(key);
    setError(null);
    const result = await action();
    setBusy(null);
    if (result.error) setError(authErrorMessage(intl, result.error));
    await queryClient.invalidateQueries({ queryKey: sessionsKey });
  }

  const signOutHere = async () => {
    setBusy(currentSessionId ?? 'current');
    await authClient.signOut();
    liveClient.reconnect();
    await navigate({ to: '/' });
  };

  const others = sessions.data?.filter((session) => session.id !== currentSessionId) ?? [];
  const ordered = [
    ...(sessions.data?.filter((session) => session.id === currentSessionId) ?? []),
    ...others.toSorted((a, b) => new Date(b.updatedAt).getTime() - new Date(a.updatedAt).getTime()),
  ];

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }}>
      <Stack>
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Title order={2} size="h3">
              <FormattedMessage id="account.sessions.title" defaultMessage="Where you are signed in" />
            </Title>
            <Text size="sm" c="dimmed">
              <FormattedMessage
                id="account.sessions.intro"
                defaultMessage="If you do not recognise a device, sign it out and change your password."
              />
            </Text>
          </Stack>
          {others.length > 0 && (
            <Button
              variant="light"
              color="red"
              loading={busy === 'others'}
              onClick={() => void run('others', () => authClient.revokeOtherSessions())}
            >
              <FormattedMessage id="account.sessions.revokeOthers" defaultMessage="Sign out everywhere else" />
            </Button>
          )}
        </Group>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {sessions.isPending ? (
          sessions.fetchStatus === 'paused' ? (
            <NeedsNetwork />
          ) : (
            <PageLoader />
          )
        ) : sessions.isError ? (
          <ErrorState error={sessions.error} />
        ) : (
          <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {ordered.map((session) => {
              const current = session.id === currentSessionId;
              return (
                <Paper
                  key={session.id}
                  component="li"
                  withBorder
                  p="sm"
                  bg={current ? 'var(--mantine-primary-color-light)' : undefined}
                >
                  <Group justify="space-between" wrap="wrap" gap="sm">
                    <Stack gap={2}>
                      <Group gap="xs">
                        <Text fw={600}>{deviceName(intl, session.userAgent)}</Text>
                        {current && (
                          <Badge variant="light">
                            <FormattedMessage id="account.sessions.thisDevice" defaultMessage="This device" />
                          </Badge>
                        )}
                      </Group>
                      <Text size="sm" c="dimmed">
                        <FormattedMessage
                          id="account.sessions.details"
                          defaultMessage="{ip, select, none {Signed in {createdAt}} other {IP {ip} · signed in {createdAt}}}"
                          values={{ ip: session.ipAddress || 'none', createdAt: dateTime(session.createdAt) }}
                        />
                      </Text>
                      <Text size="sm" c="dimmed">
                        <FormattedMessage
                          id="account.sessions.lastUsed"
                          defaultMessage="Last active {lastUsed}"
                          values={{ lastUsed: dateTime(session.updatedAt) }}
                        />
                      </Text>
                    </Stack>
                    {current ? (
                      <Button variant="default" loading={busy === session.id} onClick={() => void signOutHere()}>
                        <FormattedMessage id="account.sessions.signOutHere" defaultMessage="Sign out" />
                      </Button>
                    ) : (
                      <Button
                        variant="default"
                        color="red"
                        loading={busy === session.id}
                        onClick={() => void run(session.id, () => revokeSession(session.id))}
                        aria-label={intl.formatMessage(
                          { id: 'account.sessions.revokeLabel', defaultMessage: 'Revoke the session on {device}' },
                          { device: deviceName(intl, session.userAgent) },
                        )}
                      >
                        <FormattedMessage id="account.sessions.revoke" defaultMessage="Revoke" />
                      </Button>
                    )}
                  </Group>
                </Paper>
              );
            })}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
