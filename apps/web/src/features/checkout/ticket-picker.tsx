import type { codeTicketTypes } from '@admit/shared/codes';
import { contractRef } from '@admit/shared/contract-ref';
import type { PublicEventRow, ticketAvailability } from '@admit/shared/events';
import { localizeEvent, localizeTicketTypeName } from '@admit/shared/localize-event';
import type { createOrder, CreateOrderInput } from '@admit/shared/orders';
import type { eventQuestions } from '@admit/shared/questions';
import { Alert, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSession } from '../../lib/session';
import { callFunction } from '../../lib/callable';
import { sendStep, useStep } from '../../lib/beacon';
import { embeddingSite } from '../../lib/embed-frame';
import { useEventLanguage } from '../../lib/event-language';
import type { GuestDraft } from '../../lib/guest-fields';
import { useKeptDraft } from '../../lib/kept-drafts';
import { useLiveQuery } from '../../lib/live';
import { formatMoney } from '../../lib/money';
import { ErrorSentence, ErrorState, PageLoader } from '../../lib/page-state';
import type { AnswerDraft } from '../../lib/answer-fields';
import { askedTickets } from './asked-tickets';
import { CodeEntry } from './code-entry';
import { BuyerStep } from './buyer-step';
import { PlacedNotice } from './placed-notice';
import { resalePriceOf, salesWindowOf, TicketTypeRow, useNow, type ShownType } from './ticket-type-row';

// The picker is drawn in the event page's first view and loaded before the page is taken over: its
// contracts by name, so that it loads neither zod nor their modules' schemas (decision 0050).
const availability = contractRef<typeof ticketAvailability>('events.availability');
const typesOfCode = contractRef<typeof codeTicketTypes>('codes.ticketTypes');
const questionsOfEvent = contractRef<typeof eventQuestions>('questions.ofEvent');
const orderCreation = contractRef<typeof createOrder>('orders.create');

/**
 * The questions' step, with its fields and the phone number rules: a chunk of its own, loaded once a
 * ticket that is asked something is chosen, so that the event page does not bring it for every event.
 */
const loadAttendeeStep = () => import('./attendee-step');
const AttendeeStep = lazy(async () => ({ default: (await loadAttendeeStep()).AttendeeStep }));

/** A sold-out ticket type, named as the page shows it, for what the page offers in its place. */
export interface SoldOutType {
  id: string;
  name: string;
  /** The most one order may take of it (its per-order and per-buyer limits). */
  maxQuantity: number;
  /** Not on sale yet: only a pre-sale list takes people for it. */
  beforeSales?: boolean;
}

/**
 * Choosing and taking tickets for one event; remaining counts update live as others take theirs.
 * A code (typed, or from the link's `?code=`) adds the hidden ticket types it unlocks and its prices.
 */
export function TicketPicker({
  event,
  code,
  onCodeChange,
  embedded,
  soldOut,
}: {
  event: PublicEventRow;
  code: string | null;
  onCodeChange: (code: string | null) => void;
  /**
   * In another site's frame (decision 0061): where the checkout cannot finish there (`newTab`: a page
   * without HTTPS, a small screen), it continues on the event's page in a tab of its own.
   */
  embedded?: { newTab: 'insecure' | 'small' | null };
  /** What a sold-out type's row offers besides (the waiting list, which the route composes in). */
  soldOut?: (type: SoldOutType) => ReactNode;
}) {
  const intl = useIntl();
  const session = useSession();
  const navigate = useNavigate();
  const { rows: publicTypes, error } = useLiveQuery(availability, { eventId: event.id });
  // Applying a code again (after "try again in 5 minutes") asks the server again.
  const [attempt, setAttempt] = useState(0);
  const withCode = useLiveQuery(typesOfCode, { eventId: event.id, code: code ?? '' }, { enabled: code !== null, attempt });
  const codeWorks = code !== null && !withCode.error && withCode.rows !== undefined;
  // The code's types that it still has room for: a used-up code takes nothing off.
  const codeRows = new Map((codeWorks ? withCode.rows! : []).filter((row) => row.remaining > 0).map((row) => [row.id, row]));
  const usedUp = codeWorks && withCode.rows!.length > 0 && codeRows.size === 0;
  // A visible type sells without the code too: with it, at the code's price and no more than the
  // code has room for; a hidden one is the code's row whole.
  const types: ShownType[] | undefined = publicTypes && [
    ...publicTypes.map((type) => {
      // Tickets offered back are sold without a code, at their sellers' price: a sold-out type's code is no use.
      const coded = type.remaining > 0 ? codeRows.get(type.id) : undefined;
      return coded
        ? {
            ...type,
            price: coded.price,
            remaining: Math.min(type.remaining, coded.remaining),
            listPrice: type.price,
            unlocked: false,
          }
        : // Tickets offered back cost what their sellers paid (decision 0066).
          { ...type, price: resalePriceOf(type) ?? type.price, listPrice: resalePriceOf(type) ?? type.price, unlocked: false };
    }),
    ...(codeWorks ? withCode.rows! : []).filter((row) => row.unlocked && !publicTypes.some((type) => type.id === row.id)),
  ];
  types?.sort((a, b) => a.position - b.position);
  // The page turns a type on (or off) by itself when its sales start (or end).
  const now = useNow(types ?? []);
  const firstCodeRow = codeWorks ? withCode.rows![0] : undefined;
  // Ticket types are named in the language the event's page shows it in.
  const language = useEventLanguage();
  const shownIn = localizeEvent(event, language).locale;
  const [quantities, setQuantities] = useState<Record<string, number>>({});
  // What is ordered: the types on screen only (a code that stopped working takes its types away).
  const chosen = (types ?? [])
    .filter((type) => (quantities[type.id] ?? 0) > 0)
    .map((type) => ({ ticketTypeId: type.id, quantity: quantities[type.id]! }));
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  // The event's questions: asked of each ticket of the types they are for, before ordering.
  const questionList = useLiveQuery(questionsOfEvent, { eventId: event.id });
  const questions = questionList.rows ?? [];
  // Until the questions are known, nobody knows which tickets need answers (a failed list is left to
  // the server, which refuses an order missing them).
  const questionsKnown = questionList.rows !== undefined || questionList.error !== undefined;
  const title = useRef<HTMLHeadingElement>(null);
  const typeNameOf = (ticketTypeId: string) => {
    const type = types?.find((one) => one.id === ticketTypeId);
    return type ? localizeTicketTypeName(type, event.contentLocale, shownIn) : { name: '', locale: shownIn };
  };
  // Tickets offered back (decision 0066) are sold in an order of their own, of their type only.
  const resaleLine = (line: { ticketTypeId: string }) => types?.find((type) => type.id === line.ticketTypeId)?.remaining === 0;
  const resaleMixed = chosen.length > 1 && chosen.some(resaleLine);
  const asked = askedTickets(chosen, questions, typeNameOf);
  const asksAnything = asked.length > 0;
  useEffect(() => {
    if (asksAnything) void loadAttendeeStep();
  }, [asksAnything]);
  const [answering, setAnswering] = useState(false);
  // Not signed in: "Continue with email" orders as a guest, with a name and an address (decision 0060).
  const [asGuest, setAsGuest] = useState(false);
  const [guest, setGuest] = useState<GuestDraft>({ name: '', email: '' });
  const guestOrder = !session.data && asGuest;
  const [drafts, setDrafts] = useState<Record<string, AnswerDraft>>({});
  const [answerErrors, setAnswerErrors] = useState<Record<string, Record<string, string>>>({});
  // What was chosen and answered, back after a reload for a new build (lib/kept-drafts.ts).
  useKeptDraft(
    `checkout ${event.id}`,
    () => ({ quantities, drafts, answering, asGuest, guest }),
    (kept) => {
      setQuantities(kept.quantities);
      setDrafts(kept.drafts);
      setAnswering(kept.answering);
      // A guest's name and address too (a draft kept before guests could order has neither).
      if (kept.guest) {
        setAsGuest(kept.asGuest);
        setGuest(kept.guest);
      }
    },
  );
  useStep(
    event.id,
    'tickets',
    Object.values(quantities).some((quantity) => quantity > 0),
  );
  const mutation = useMutation({
    mutationFn: (lines: CreateOrderInput['lines']) =>
      callFunction(orderCreation, {
        eventId: event.id,
        lines,
        idempotencyKey,
        // Only while it takes something off or unlocks what is chosen: a used-up code is left out.
        ...(codeWorks && chosen.some((line) => codeRows.has(line.ticketTypeId) && !resaleLine(line)) ? { code } : {}),
        ...(guestOrder ? { guest: { name: guest.name.trim(), email: guest.email.trim() } } : {}),
      }),
    onSuccess: (placed) => {
      sendStep(event.id, 'checkout', placed.orderId);
      // Free: taken at once, nothing left to pay.
      if (placed.status === 'paid') sendStep(event.id, 'paid', placed.orderId);
      setQuantities({});
      setAnswering(false);
      setDrafts({});
      setIdempotencyKey(crypto.randomUUID());
      // Something to pay: the order page is the payment step, with the hold's countdown (a guest's
      // opened by its token); in another site's frame, its embedded form. A guest's free places wait
      // for the emailed link instead.
      const token = placed.accessToken ? { token: placed.accessToken } : {};
      if (placed.status === 'pending' && (placed.accessToken || placed.total !== 0))
        void navigate(
          embedded
            ? {
                to: '/embed/orders/$orderId',
                params: { orderId: placed.orderId },
                search: { source: embeddingSite() ?? undefined, ...token },
              }
            : { to: '/orders/$orderId', params: { orderId: placed.orderId }, search: token },
        );
    },
    onError: (error, lines) => {
      setIdempotencyKey(crypto.randomUUID());
      // Answers the server refused (a question changed meanwhile): shown at their questions.
      void import('./answer-errors').then(({ answerErrorsOf }) => {
        const refused = answerErrorsOf(intl, error, lines);
        if (refused) {
          setAnswerErrors(refused);
          setAnswering(true);
        }
      });
    },
  });

  /** Orders the chosen tickets; when some are asked questions, their answers first (a step of their own). */
  function submit() {
    if (asked.length === 0) return mutation.mutate(chosen);
    if (!answering) {
      mutation.reset();
      return setAnswering(true);
    }
    // The step is on screen: its chunk is in.
    void loadAttendeeStep().then(({ linesWithAnswers }) => {
      const checked = linesWithAnswers(intl, chosen, questions, drafts);
      setAnswerErrors(checked.errors ?? {});
      if (checked.lines) mutation.mutate(checked.lines);
    });
  }

  if (error) return <ErrorState error={error} />;
  if (!types) return <PageLoader />;
  const total = chosen.reduce((sum, line) => sum + line.quantity, 0);
  const price = types.reduce((sum, type) => sum + type.price * (quantities[type.id] ?? 0), 0);
  const onSale = event.status === 'published';

  return (
    <Card withBorder shadow="sm" padding="lg">
      <Stack gap="md">
        <Title order={2} size="h3" ref={title} tabIndex={-1}>
          <FormattedMessage id="picker.title" defaultMessage="Tickets" />
        </Title>
        {event.maxPerBuyer !== null && (
          <Text size="sm" c="dimmed">
            <FormattedMessage
              id="picker.eventMaxPerBuyer"
              defaultMessage="At most {count, plural, one {# ticket} other {# tickets}} per person for this event, across orders."
              values={{ count: event.maxPerBuyer }}
            />
          </Text>
        )}
        {answering && asked.length > 0 ? (
          <Suspense fallback={<PageLoader />}>
            <AttendeeStep
              questions={questions}
              tickets={asked}
              drafts={drafts}
              onDraftsChange={(key, draft) => setDrafts((current) => ({ ...current, [key]: draft }))}
              errors={answerErrors}
              onBack={() => {
                setAnswering(false);
                setAnswerErrors({});
                mutation.reset();
                title.current?.focus();
              }}
            />
          </Suspense>
        ) : (
          types.map((type) => {
            const max = Math.min(type.maxPerOrder, type.maxPerBuyer ?? type.maxPerOrder);
            const name = localizeTicketTypeName(type, event.contentLocale, shownIn);
            const sales = salesWindowOf(type, now);
            // Sold out: no more than its holders offer back (none: the field is off); out of its sales window, none.
            const orderable = sales !== 'open' ? 0 : type.remaining === 0 ? Math.min(max, type.resale) : max;
            return (
              <TicketTypeRow
                key={type.id}
                type={type}
                name={name}
                currency={event.currency}
                quantity={quantities[type.id] ?? 0}
                max={orderable}
                onSale={onSale}
                sales={sales}
                timeZone={event.timeZone}
                onQuantityChange={(quantity) => setQuantities((current) => ({ ...current, [type.id]: quantity }))}
                // A type a code unlocks is the code's: nobody waits for it.
                soldOut={
                  soldOut &&
                  !type.unlocked &&
                  soldOut({ id: type.id, name: name.name, maxQuantity: max, beforeSales: sales === 'before' })
                }
              />
            );
          })
        )}
        {onSale && !answering && (
          <CodeEntry
            code={code}
            currency={event.currency}
            onChange={(next) => {
              // Quantities of types the old code showed go with it.
              setQuantities((current) =>
                Object.fromEntries(Object.entries(current).filter(([id]) => publicTypes?.some((type) => type.id === id))),
              );
              setAttempt((before) => before + 1);
              onCodeChange(next);
            }}
            error={withCode.error}
            applied={
              codeWorks
                ? {
                    unlocked: withCode.rows!.filter((row) => row.unlocked).length,
                    discount: firstCodeRow?.discount ?? null,
                    minQuantity: firstCodeRow?.minQuantity ?? 1,
                    usedUp,
                  }
                : undefined
            }
          />
        )}
        {mutation.isSuccess && (
          <PlacedNotice placed={mutation.data} guestEmail={guest.email.trim()} embedded={Boolean(embedded)} />
        )}
        {resaleMixed && (
          <Alert color="yellow" role="status">
            <FormattedMessage
              id="picker.resaleAlone"
              defaultMessage="Tickets offered back by other fans are bought in an order of their own. Choose only them, and order the others afterwards."
            />
          </Alert>
        )}
        {mutation.isError && (
          <Alert color="red" role="alert">
            <ErrorSentence error={mutation.error} />
          </Alert>
        )}
        {price > 0 && (
          <Group justify="space-between">
            <Text fw={600}>
              <FormattedMessage id="picker.total" defaultMessage="Total" />
            </Text>
            <Text fw={600} data-testid="picker-total">
              {formatMoney(intl.locale, price, event.currency)}
            </Text>
          </Group>
        )}
        <BuyerStep
          event={event}
          code={code}
          embedded={embedded}
          signedIn={Boolean(session.data)}
          sessionPending={session.isPending}
          guestOrder={guestOrder}
          guest={guest}
          onGuestChange={setGuest}
          onContinueAsGuest={() => setAsGuest(true)}
          // Nothing left to take (a waiting list may be offered above): no guest checkout to start.
          onSale={onSale && types.some((type) => (type.remaining > 0 || type.resale > 0) && salesWindowOf(type, now) === 'open')}
          onSubmit={submit}
          submitDisabled={total === 0 || !onSale || !questionsKnown || resaleMixed}
          submitting={mutation.isPending}
          submitLabel={
            asked.length > 0 && !answering ? (
              <FormattedMessage id="picker.answers.next" defaultMessage="Continue" />
            ) : (
              <FormattedMessage
                id="picker.submit"
                defaultMessage="{count, plural, =0 {Get tickets} one {Get # ticket} other {Get # tickets}}"
                values={{ count: total }}
              />
            )
          }
        />
      </Stack>
    </Card>
  );
}
