import { Alert, Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';

/** Whether this server keeps emails in its dev outbox instead of sending them (never in production). */
export function useDevOutbox() {
  return useQuery({
    queryKey: ['dev-outbox'],
    queryFn: async () => (await fetch('/dev/outbox.json', { method: 'HEAD' })).ok,
    staleTime: Infinity,
  }).data;
}

/** Where to find the email when the server runs locally and sends none. */
export function DevOutboxHint() {
  const intl = useIntl();
  const devOutbox = useDevOutbox();
  if (!devOutbox) return null;
  return (
    <Alert color="yellow" title={intl.formatMessage({ id: 'signUp.devOutbox.title', defaultMessage: 'Running locally' })}>
      <FormattedMessage
        id="signUp.devOutbox.body"
        defaultMessage="This server does not send real emails. Find the message in the <link>dev outbox</link>."
        values={{ link: (chunks) => <Anchor href="/dev/outbox">{chunks}</Anchor> }}
      />
    </Alert>
  );
}
