import { applePassPath, googleWalletPath } from '@admit/shared/tickets';
import { Button, Stack, type StackProps } from '@mantine/core';
import { IconWallet } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';

/**
 * "Add to Apple Wallet" and "Add to Google Wallet" for one valid ticket (decision 0067). Plain links,
 * like the PDF's: the pass is a file the browser saves (Safari on an iPhone opens it in Wallet), and
 * Google's save page is reached by the server's redirect. They open for whoever may get the ticket's
 * PDF: the holder's session, or `accessToken` (the ticket's own link's, or a guest's order's).
 * Each only when the server offers that wallet (`GET /api/wallets`: set up, or any outside
 * production); none while that is not known yet.
 * Each name says which ticket, as an order's tickets sit side by side; the visible words come first.
 * `children`: the ticket's other files (its PDF), first in the same column: one width for all, as the
 * widest of them, so that on a phone they stack as one block rather than a ragged pile.
 */
export function WalletButtons({
  ticket,
  accessToken,
  children,
  ...props
}: {
  ticket: { id: string; ticketTypeName: string; holderName: string };
  accessToken?: string;
  children?: ReactNode;
} & StackProps) {
  const intl = useIntl();
  const offered = useOfferedWallets();
  const which = { type: ticket.ticketTypeName, holder: ticket.holderName };
  return (
    <Stack gap="xs" w="fit-content" maw="100%" {...props}>
      {children}
      {offered?.apple && (
        <Button
          component="a"
          href={applePassPath(ticket.id, accessToken)}
          download
          variant="light"
          size="xs"
          leftSection={<IconWallet size={16} aria-hidden />}
          aria-label={intl.formatMessage(
            { id: 'tickets.wallet.appleFor', defaultMessage: 'Add to Apple Wallet: the {type} ticket for {holder}' },
            which,
          )}
        >
          <FormattedMessage id="tickets.wallet.apple" defaultMessage="Add to Apple Wallet" />
        </Button>
      )}
      {offered?.google && (
        <Button
          component="a"
          href={googleWalletPath(ticket.id, accessToken)}
          variant="light"
          size="xs"
          leftSection={<IconWallet size={16} aria-hidden />}
          aria-label={intl.formatMessage(
            { id: 'tickets.wallet.googleFor', defaultMessage: 'Add to Google Wallet: the {type} ticket for {holder}' },
            which,
          )}
        >
          <FormattedMessage id="tickets.wallet.google" defaultMessage="Add to Google Wallet" />
        </Button>
      )}
    </Stack>
  );
}

/** The wallets this server offers passes for; undefined while that is being asked. */
function useOfferedWallets(): { apple: boolean; google: boolean } | undefined {
  return useQuery({
    queryKey: ['wallets'],
    queryFn: async () => {
      const answer = await fetch('/api/wallets');
      if (!answer.ok) throw new Error(`GET /api/wallets answered ${answer.status}`);
      return (await answer.json()) as { apple: boolean; google: boolean };
    },
    staleTime: Number.POSITIVE_INFINITY,
  }).data;
}
