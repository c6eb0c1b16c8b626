import type { MyWaitlistEntryRow } from '@admit/shared/waitlist';
import { Card, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { ErrorState } from '../../lib/page-state';
import type { ShownName } from './event-waitlist';
import { MyWaitlistEntry } from './my-waitlist-entry';

/**
 * The signed-in person's entries on the event's waiting list, live: their place while they wait,
 * an offer to take, what became of it. An entry they left is shown only where they left it.
 */
export function MyWaitlistEntries({
  entries,
  error,
  timeZone,
  nameOf,
  focusId,
  onFocused,
}: {
  entries: readonly MyWaitlistEntryRow[];
  error: unknown;
  timeZone: string;
  nameOf: (ticketTypeId: string) => ShownName;
  /** An entry whose line takes the focus once it shows (the one just made). */
  focusId: string | null;
  onFocused: () => void;
}) {
  const [leftHere, setLeftHere] = useState<ReadonlySet<string>>(() => new Set());
  const shown = entries.filter((entry) => entry.status !== 'left' || leftHere.has(entry.id));
  if (error) return <ErrorState error={error} />;
  if (shown.length === 0) return null;
  return (
    <Card withBorder padding="lg" mt="md" data-testid="my-waitlist">
      <Stack gap="md">
        <Title order={2} size="h4">
          <FormattedMessage id="waitlist.mine.title" defaultMessage="Your waiting list" />
        </Title>
        {shown.map((entry) => (
          <MyWaitlistEntry
            key={entry.id}
            entry={entry}
            name={nameOf(entry.ticketTypeId)}
            timeZone={timeZone}
            focus={entry.id === focusId}
            onFocused={onFocused}
            onLeft={() => setLeftHere((before) => new Set(before).add(entry.id))}
          />
        ))}
      </Stack>
    </Card>
  );
}
