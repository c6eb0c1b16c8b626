import { Table } from '@mantine/core';

/**
 * The right-hand cell of the scanner's tables (a result badge, a button): at least as wide as what
 * it holds, so that on a phone the name beside it wraps and the badge is never cut short.
 */
export function ResultCell({ children }: { children: React.ReactNode }) {
  return (
    <Table.Td ta="end">
      <div style={{ minWidth: 'max-content' }}>{children}</div>
    </Table.Td>
  );
}
