import type { TicketPdfInput } from './ticket-pdf';

/**
 * The tickets as a PDF (ticket-pdf.ts), with pdf-lib and the fonts loaded when the first one is made:
 * they are the largest import of the server, and a process that starts (a web process, a worker,
 * each test) need not wait for them before it makes a PDF, or at all when it never does.
 */
export async function ticketsPdf(input: TicketPdfInput): Promise<Uint8Array> {
  const { ticketsPdf: render } = await import('./ticket-pdf');
  return render(input);
}
