import { ticketsPdfPath } from '@admit/shared/tickets';
import { Button, type ButtonProps } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { FormattedMessage } from 'react-intl';

/**
 * "Download tickets (PDF)": the order's valid tickets, one page each, as the confirmation email
 * attaches them. A plain link, so the browser saves the file itself (the server names it) and it
 * works without the page's scripts; the server answers only the buyer (or a guest's token) and the organization's admins.
 */
export function TicketsPdfLink({ orderId, accessToken, ...props }: { orderId: string; accessToken?: string } & ButtonProps) {
  return (
    <Button
      component="a"
      href={ticketsPdfPath(orderId, accessToken)}
      download
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      {...props}
    >
      <FormattedMessage id="tickets.pdf.download" defaultMessage="Download tickets (PDF)" />
    </Button>
  );
}
