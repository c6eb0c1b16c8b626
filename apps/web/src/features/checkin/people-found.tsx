import type { AttendeeRow } from '@admit/shared/checkin';
import { Badge, Button, Card, Table, Text } from '@mantine/core';
import { memo, useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { AttendeeIndex } from './attendee-index';
import { ResultCell } from './result-cell';

/** How many people a search shows at once (the list may hold 10,000). */
const searchLimit = 20;

/**
 * The people a search found, live (a ticket checked in elsewhere shows it). Once Enter was pressed
 * on the name (`asked`), it says how many there are to pick from, or that there is no one, even for
 * one letter.
 */
export const PeopleFound = memo(function PeopleFound({
  index,
  attendees,
  query,
  asked,
  onCheckIn,
}: {
  index: AttendeeIndex;
  attendees: AttendeeRow[];
  query: string;
  asked: boolean;
  onCheckIn: (row: AttendeeRow) => void;
}) {
  const searched = query.length >= 2 || (asked && query !== '');
  // One more than are shown: whether there are more than that.
  const found = useMemo(
    () => (searched ? index.search(query, searchLimit + 1) : []),
    // attendees: the index has changed with them
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [index, attendees, query, searched],
  );
  const matches = found.length > searchLimit ? found.slice(0, searchLimit) : found;
  return (
    <>
      {/* Always there, so that a screen reader hears it when the search finds no one, or after Enter. */}
      <div role="status">
        {searched && matches.length === 0 && (
          <Text size="sm" c="dimmed">
            <FormattedMessage id="scanner.search.none" defaultMessage="No one found for “{query}”." values={{ query }} />
          </Text>
        )}
        {asked && matches.length > 0 && (
          <Text size="sm" fw={600}>
            {found.length > searchLimit ? (
              <FormattedMessage
                id="scanner.search.pickMore"
                defaultMessage="More than {count, number} people found for “{query}”: type more of the name, or choose whom to check in."
                values={{ count: searchLimit, query }}
              />
            ) : (
              <FormattedMessage
                id="scanner.search.pick"
                defaultMessage="{count, plural, one {# person found for “{query}”: choose whom to check in.} other {# people found for “{query}”: choose whom to check in.}}"
                values={{ count: matches.length, query }}
              />
            )}
          </Text>
        )}
      </div>
      {matches.length > 0 && <SearchResults rows={matches} onCheckIn={onCheckIn} />}
    </>
  );
});

function SearchResults({ rows, onCheckIn }: { rows: AttendeeRow[]; onCheckIn: (row: AttendeeRow) => void }) {
  const intl = useIntl();
  return (
    <Card withBorder padding="sm">
      <Table aria-label={intl.formatMessage({ id: 'scanner.search.table', defaultMessage: 'People found' })}>
        <Table.Tbody>
          {rows.map((row) => (
            <SearchResult key={row.id} row={row} onCheckIn={onCheckIn} />
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

/** One person found (as someone types, most of them were found by the previous letter too: not rendered again). */
const SearchResult = memo(function SearchResult({ row, onCheckIn }: { row: AttendeeRow; onCheckIn: (row: AttendeeRow) => void }) {
  const intl = useIntl();
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={600}>{row.holderName}</Text>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {row.holderEmail === null ? (
            row.ticketTypeName
          ) : (
            <FormattedMessage
              id="scanner.search.detail"
              defaultMessage="{email} · {type}"
              values={{ email: row.holderEmail, type: row.ticketTypeName }}
            />
          )}
        </Text>
      </Table.Td>
      <ResultCell>
        {row.status === 'void' ? (
          <Badge color="red" variant="light">
            <FormattedMessage id="scanner.search.void" defaultMessage="Void" />
          </Badge>
        ) : row.checkedInAt ? (
          <Badge color="orange" variant="light">
            <FormattedMessage id="scanner.search.in" defaultMessage="Checked in" />
          </Badge>
        ) : (
          <Button
            size="xs"
            onClick={() => onCheckIn(row)}
            aria-label={intl.formatMessage(
              { id: 'scanner.search.checkIn', defaultMessage: 'Check in {name}' },
              { name: row.holderName },
            )}
          >
            <FormattedMessage id="scanner.checkIn" defaultMessage="Check in" />
          </Button>
        )}
      </ResultCell>
    </Table.Tr>
  );
});
