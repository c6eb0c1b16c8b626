import { contractRef } from '@admit/shared/contract-ref';
import type { PublicEventRow, ticketAvailability } from '@admit/shared/events';
import { localizeEvent, localizeTicketTypeName } from '@admit/shared/localize-event';
import type { Locale } from '@admit/shared/locales';
import type { joinWaitlist, myWaitlistEntries, waitlistSettings } from '@admit/shared/waitlist';
import { useMutation } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { callFunction } from '../../lib/callable';
import { useEventLanguage } from '../../lib/event-language';
import type { GuestDraft } from '../../lib/guest-fields';
import { useLiveQuery } from '../../lib/live';
import { useSession } from '../../lib/session';
import { JoinWaitlist } from './join-waitlist';
import { MyWaitlistEntries } from './my-waitlist-entries';

// Drawn in the event page's first view with the ticket picker: its contracts by name, so that it
// loads neither zod nor the modules' schemas (decision 0050).
const settingsOf = contractRef<typeof waitlistSettings>('waitlist.settings');
const entriesOf = contractRef<typeof myWaitlistEntries>('waitlist.mine');
const availability = contractRef<typeof ticketAvailability>('events.availability');
const joining = contractRef<typeof joinWaitlist>('waitlist.join');

/** A sold-out ticket type as the picker shows it (its name in the page's language). */
export interface SoldOutType {
  id: string;
  name: string;
  maxQuantity: number;
  /** Not on sale yet: only a pre-sale list takes people for it. */
  beforeSales?: boolean;
}

/** A ticket type's name in the language the page shows the event in, with that language (when known). */
export type ShownName = { name: string; locale?: Locale };

/**
 * An event's waiting list on its public page (decision 0064): `children` draws the tickets, and
 * gets the part a sold-out type's row shows (joining its list, signed in or as a guest, when the list
 * is open for it and the person is not on it already); under them, the signed-in person's own
 * entries, live. A guest has none here: their place is on the page of the link emailed to them.
 */
export function EventWaitlist({
  event,
  children,
}: {
  event: PublicEventRow;
  children: (soldOut: (type: SoldOutType) => ReactNode) => ReactNode;
}) {
  const session = useSession();
  const signedIn = Boolean(session.data);
  const settings = useLiveQuery(settingsOf, { eventId: event.id }).rows?.[0];
  const mine = useLiveQuery(entriesOf, { eventId: event.id }, { enabled: signedIn });
  // What the cache kept from another person stays unseen until the session is known.
  const entries = signedIn ? (mine.rows ?? []) : [];
  // The types' names: the picker watches them, and its rows are in the same cache; watched here too
  // only while there are entries to name, so that every visitor's page does not watch them twice.
  const types = useLiveQuery(availability, { eventId: event.id }, { enabled: entries.length > 0 }).rows;
  const shownIn = localizeEvent(event, useEventLanguage()).locale;
  // The entry just made: its line takes the focus once it is on screen (the join's part goes).
  const [joinedId, setJoinedId] = useState<string | null>(null);
  // A guest's entries, by ticket type: the address their link went to, said in place of the join's part.
  const [linkSentTo, setLinkSentTo] = useState<Readonly<Record<string, string>>>({});
  const join = useMutation({
    mutationFn: (input: { ticketTypeId: string; quantity: number; guest?: GuestDraft }) =>
      callFunction(joining, { eventId: event.id, ...input }),
    onSuccess: ({ entryId, position }, { ticketTypeId, guest }) => {
      // No place yet: a guest's counts once they open the emailed link.
      if (position === null && guest) setLinkSentTo((before) => ({ ...before, [ticketTypeId]: guest.email }));
      else setJoinedId(entryId);
    },
  });

  const onList = new Set(
    entries.filter((entry) => entry.status === 'waiting' || entry.status === 'offered').map((entry) => entry.ticketTypeId),
  );
  const open = event.status === 'published' && settings?.enabled === true;
  const covers = (ticketTypeId: string) =>
    settings !== undefined && (settings.ticketTypeIds.length === 0 || settings.ticketTypeIds.includes(ticketTypeId));
  const nameOf = (ticketTypeId: string): ShownName => {
    const type = types?.find((one) => one.id === ticketTypeId);
    return type ? localizeTicketTypeName(type, event.contentLocale, shownIn) : { name: '', locale: shownIn };
  };

  const soldOut = (type: SoldOutType) =>
    open && covers(type.id) && !onList.has(type.id) && (!type.beforeSales || settings?.presale) ? (
      <JoinWaitlist
        type={type}
        offerHours={settings!.offerHours}
        signedIn={signedIn}
        sessionPending={session.isPending}
        linkSentTo={linkSentTo[type.id] ?? null}
        pending={join.isPending && join.variables.ticketTypeId === type.id}
        error={join.isError && join.variables.ticketTypeId === type.id ? join.error : null}
        onJoin={(quantity, guest) =>
          join.mutate({
            ticketTypeId: type.id,
            quantity,
            ...(guest && { guest: { name: guest.name.trim(), email: guest.email.trim() } }),
          })
        }
      />
    ) : null;

  return (
    <>
      {children(soldOut)}
      {signedIn && (
        <MyWaitlistEntries
          entries={entries}
          error={mine.error}
          timeZone={event.timeZone}
          nameOf={nameOf}
          focusId={joinedId}
          onFocused={() => setJoinedId(null)}
        />
      )}
    </>
  );
}
