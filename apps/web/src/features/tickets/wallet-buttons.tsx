import { applePassPath, googleWalletPath } from '@admit/shared/tickets';
import { Button, Stack, type StackProps } from '@mantine/core';
import { IconWallet } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';

/**
 * "Add to Apple Wallet" and "Add to Google Wallet" for one valid ticket (decision 0067). Plain links,
 * like the PDF's: the pass is a file the browser saves (Safari on an iPhone opens it in Wallet), and
 * Google's save page is reached by the server's redirect. They open for whoever may get the ticket's
 * PDF: the holder's session, or `accessToken` (the ticket's own link's, or a guest's order's).
 * Shown whether or not the operator set the wallets up: the server does not say so yet, and in
 * production without settings it answers 404 saying that passes are not set up.
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
  const which = { type: ticket.ticketTypeName, holder: ticket.holderName };
  return (
    <Stack gap="xs" w="fit-content" maw="100%" {...props}>
      {children}
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
    </Stack>
  );
}
