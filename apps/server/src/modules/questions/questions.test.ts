import { randomUUID } from 'node:crypto';
import { attendees, scanTicket } from '@admit/shared/checkin';
import {
  createOrder,
  myOrder,
  orderDetail,
  type CreateOrderInput,
  type MyOrderRow,
  type OrderDetailRow,
} from '@admit/shared/orders';
import {
  changeAnswers,
  createQuestion,
  deleteQuestion,
  eventQuestions,
  moveQuestion,
  updateQuestion,
  type CreateQuestionInput,
} from '@admit/shared/questions';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createPublishedEvent, payWithTestCard } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event } from '../events/schema';
import { ticket } from '../tickets/schema';

// Questions asked of each attendee at checkout (decision 0048): made by the event's admins,
// answered per ticket with the order, checked on the server by the schema the browser uses, kept
// with the hold, carried by the tickets, changed by the buyer until the event starts, and shown in
// the order, the organizer's detail, the attendee export and, for the marked ones, at the door.

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;
let url: string;
let owner: Person;

beforeAll(async () => {
  t = await createTestApp({ env: { ORDER_ATTEMPTS_PER_ACCOUNT: '1000', ORDER_ATTEMPTS_PER_ADDRESS: '100000' } });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await t.signUp('Olga Owner');
});
afterEach(async () => {
  expect(await dataInvariantViolations(t.db)).toEqual([]);
});
afterAll(() => t?.close());

async function ask(eventId: string, question: Omit<CreateQuestionInput, 'eventId'>, cookie = owner.cookie) {
  const made = await t.call(createQuestion, { eventId, ...question }, cookie);
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body.result.questionId as string;
}

/**
 * A published event with a free type (Standing) and a paid one (Workshop, €20), asking: a diet
 * (choice), what allergy when the diet is "Other" (text, required), wheelchair access (shown at the
 * door), and the workshop's laptop (for Workshop tickets only, required).
 */
async function eventWithQuestions() {
  const { eventId, organizationId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
    ticketTypes: [
      { name: 'Standing', capacity: 50 },
      { name: 'Workshop', capacity: 20, price: 2000 },
    ],
  });
  const [standingId, workshopId] = ticketTypeIds as [string, string];
  const dietId = await ask(eventId, { kind: 'choice', label: 'Diet', options: ['None', 'Vegan', 'Other'], required: true });
  const allergyId = await ask(eventId, {
    kind: 'text',
    label: 'Which allergy?',
    required: true,
    showIf: { questionId: dietId, values: ['Other'] },
  });
  const wheelchairId = await ask(eventId, { kind: 'checkbox', label: 'Wheelchair access', onScanner: true });
  const laptopId = await ask(eventId, {
    kind: 'choice',
    label: 'Laptop',
    options: ['Mac', 'PC'],
    required: true,
    ticketTypeIds: [workshopId],
  });
  return { eventId, organizationId, standingId, workshopId, dietId, allergyId, wheelchairId, laptopId };
}

const order = (cookie: string, input: CreateOrderInput) => t.call(createOrder, input, cookie);

const pay = (buyer: Person, orderId: string) => payWithTestCard(t, buyer.cookie, orderId);

describe('an event’s questions', () => {
  it('are made, changed, moved and deleted by its admins, and watched in order by anyone who may see the event', async () => {
    const { eventId, organizationId, dietId, allergyId, wheelchairId } = await eventWithQuestions();
    const buyer = await t.signUp('Ben Buyer');
    const list = await watch(url, eventQuestions.name, { eventId }, buyer.cookie);
    expect(list.rows().map((row) => row.label)).toEqual(['Diet', 'Which allergy?', 'Wheelchair access', 'Laptop']);

    const changed = await t.call(
      updateQuestion,
      { eventId, questionId: wheelchairId, label: 'Step-free access', onScanner: true },
      owner.cookie,
    );
    expect(changed.status).toBe(200);
    expect((await t.call(moveQuestion, { eventId, questionId: wheelchairId, direction: 'up' }, owner.cookie)).status).toBe(200);
    await expect
      .poll(() => list.rows().map((row) => row.label), { timeout: 10_000 })
      .toEqual(['Diet', 'Step-free access', 'Which allergy?', 'Laptop']);

    // A question depends on an earlier choice question only, on options it has.
    expect((await t.call(moveQuestion, { eventId, questionId: allergyId, direction: 'up' }, owner.cookie)).status).toBe(200);
    const refusals = [
      await t.call(moveQuestion, { eventId, questionId: allergyId, direction: 'up' }, owner.cookie),
      await t.call(moveQuestion, { eventId, questionId: dietId, direction: 'down' }, owner.cookie),
      await t.call(deleteQuestion, { eventId, questionId: dietId }, owner.cookie),
      await t.call(updateQuestion, { eventId, questionId: dietId, label: 'Diet', options: ['None', 'Vegan'] }, owner.cookie),
      await t.call(
        createQuestion,
        { eventId, kind: 'text', label: 'Why?', showIf: { questionId: wheelchairId, values: ['true'] } },
        owner.cookie,
      ),
      await t.call(
        createQuestion,
        { eventId, kind: 'text', label: 'Which?', showIf: { questionId: dietId, values: ['Keto'] } },
        owner.cookie,
      ),
    ];
    expect(refusals.map((answer) => answer.body.error?.details)).toEqual([
      { reason: 'bad-condition' },
      { reason: 'bad-condition' },
      { reason: 'question-in-use', by: 'Which allergy?' },
      { reason: 'question-in-use', by: 'Which allergy?' },
      { reason: 'bad-condition' },
      { reason: 'bad-condition' },
    ]);
    await expect
      .poll(() => list.rows().map((row) => row.label), { timeout: 10_000 })
      .toEqual(['Diet', 'Which allergy?', 'Step-free access', 'Laptop']);
    list.close();
    const noOptions = await t.call(createQuestion, { eventId, kind: 'choice', label: 'Size', options: ['M'] }, owner.cookie);
    expect(noOptions.body.error.details.fields).toMatchObject([{ path: 'options' }]);

    // Door staff and buyers may not change them; people outside the organization do not see a draft's.
    const staff = await t.signUp('Sam Staff');
    await addMember(t, organizationId, staff.user.id, 'staff');
    expect((await t.call(createQuestion, { eventId, kind: 'text', label: 'Hi' }, staff.cookie)).body.error.status).toBe(
      'permission-denied',
    );
    expect((await t.call(deleteQuestion, { eventId, questionId: allergyId }, buyer.cookie)).body.error.status).toBe('not-found');

    expect((await t.call(deleteQuestion, { eventId, questionId: allergyId }, owner.cookie)).status).toBe(200);
    expect((await t.call(deleteQuestion, { eventId, questionId: dietId }, owner.cookie)).status).toBe(200);
  });

  it('must be answered for each ticket asked them, as the browser checks, naming every wrong answer', async () => {
    const q = await eventWithQuestions();
    const buyer = await t.signUp('Ada Attendee');

    // Without answers, the one-statement path for free orders does not let a ticket through.
    const bare = await order(buyer.cookie, { eventId: q.eventId, lines: [{ ticketTypeId: q.standingId, quantity: 1 }] });
    expect(bare.body.error.details.fields).toEqual([expect.objectContaining({ path: 'lines.0.answers' })]);

    const wrong = await order(buyer.cookie, {
      eventId: q.eventId,
      lines: [
        {
          ticketTypeId: q.standingId,
          quantity: 2,
          answers: [{ [q.dietId]: 'Other' }, { [q.dietId]: 'Paleo', [q.wheelchairId]: 'yes' }],
        },
      ],
    });
    expect(wrong.body.error.status).toBe('invalid-argument');
    expect(wrong.body.error.details.fields.map((field: { path: string }) => field.path).sort()).toEqual(
      [`lines.0.answers.0.${q.allergyId}`, `lines.0.answers.1.${q.dietId}`, `lines.0.answers.1.${q.wheelchairId}`].sort(),
    );

    // The allergy is asked only after "Other"; an answer to a question not shown is not kept.
    const placed = await order(buyer.cookie, {
      eventId: q.eventId,
      lines: [
        {
          ticketTypeId: q.standingId,
          quantity: 2,
          answers: [
            { [q.dietId]: 'Other', [q.allergyId]: ' Peanuts ', [q.wheelchairId]: true },
            { [q.dietId]: 'Vegan', [q.allergyId]: 'Gluten', [q.laptopId]: 'Mac' },
          ],
        },
      ],
    });
    expect(placed.body.result).toMatchObject({ status: 'paid', ticketCount: 2 });
    const tickets = await t.db.select().from(ticket).where(eq(ticket.orderId, placed.body.result.orderId));
    expect(tickets.map((one) => one.answers)).toEqual(
      expect.arrayContaining([
        { [q.dietId]: 'Other', [q.allergyId]: 'Peanuts', [q.wheelchairId]: true },
        { [q.dietId]: 'Vegan' },
      ]),
    );

    // A ticket type asked nothing takes none, and answers of one ticket too many are refused.
    const many = await order(buyer.cookie, {
      eventId: q.eventId,
      lines: [{ ticketTypeId: q.standingId, quantity: 1, answers: [{ [q.dietId]: 'None' }, { [q.dietId]: 'None' }] }],
    });
    expect(many.body.error.details.fields).toEqual([expect.objectContaining({ path: 'lines.0.answers' })]);
  });

  it('keeps the answers with the hold until the payment, then on the tickets, in the buyer’s and the organizer’s views', async () => {
    const q = await eventWithQuestions();
    const buyer = await t.signUp('Wes Workshop');
    const placed = await order(buyer.cookie, {
      eventId: q.eventId,
      lines: [
        {
          ticketTypeId: q.workshopId,
          quantity: 2,
          answers: [
            { [q.dietId]: 'Vegan', [q.laptopId]: 'PC' },
            { [q.dietId]: 'None', [q.laptopId]: 'Mac', [q.wheelchairId]: true },
          ],
        },
      ],
    });
    expect(placed.body.result.status).toBe('pending');
    const orderId = placed.body.result.orderId as string;

    const mine = await watch(url, myOrder.name, { orderId }, buyer.cookie);
    expect(mine.rows()[0]!.attendees).toEqual([
      {
        ticketId: null,
        ticketTypeId: q.workshopId,
        holderName: null,
        answers: [
          { questionId: q.dietId, label: 'Diet', kind: 'choice', value: 'Vegan' },
          { questionId: q.laptopId, label: 'Laptop', kind: 'choice', value: 'PC' },
        ],
      },
      expect.objectContaining({ ticketId: null, answers: expect.arrayContaining([expect.objectContaining({ value: true })]) }),
    ]);

    expect(await pay(buyer, orderId)).toBe('paid');
    await expect
      .poll(
        () =>
          (mine.rows()[0] as MyOrderRow).attendees.map((one) => [
            one.ticketId !== null,
            one.answers.map((answer) => answer.value),
          ]),
        {
          timeout: 10_000,
        },
      )
      .toEqual([
        [true, ['Vegan', 'PC']],
        [true, ['None', true, 'Mac']],
      ]);
    mine.close();

    const detail = await watch(url, orderDetail.name, { orderId }, owner.cookie);
    expect(
      (detail.rows()[0] as OrderDetailRow).tickets.map((one) =>
        one.answers.map((answer) => `${answer.label}: ${String(answer.value)}`),
      ),
    ).toEqual([
      ['Diet: Vegan', 'Laptop: PC'],
      ['Diet: None', 'Wheelchair access: true', 'Laptop: Mac'],
    ]);
    detail.close();
  });

  it('can be changed by the buyer until the event starts, checked again, and by nobody else', async () => {
    const q = await eventWithQuestions();
    const buyer = await t.signUp('Cy Changer');
    const placed = await order(buyer.cookie, {
      eventId: q.eventId,
      lines: [{ ticketTypeId: q.standingId, quantity: 1, answers: [{ [q.dietId]: 'None' }] }],
    });
    const orderId = placed.body.result.orderId as string;
    const [one] = await t.db.select().from(ticket).where(eq(ticket.orderId, orderId));
    const change = (answers: Record<string, unknown>, cookie = buyer.cookie) =>
      t.call(changeAnswers, { orderId, ticketId: one!.id, answers: answers as never }, cookie);

    expect((await change({ [q.dietId]: 'Other' })).body.error.details.fields).toEqual([
      expect.objectContaining({ path: `answers.${q.allergyId}` }),
    ]);
    expect((await change({ [q.dietId]: 'Other', [q.allergyId]: 'Shellfish' })).status).toBe(200);
    const [after] = await t.db.select().from(ticket).where(eq(ticket.id, one!.id));
    expect(after!.answers).toEqual({ [q.dietId]: 'Other', [q.allergyId]: 'Shellfish' });

    const stranger = await t.signUp('Sly Stranger');
    expect((await change({ [q.dietId]: 'Vegan' }, stranger.cookie)).body.error.status).toBe('not-found');

    await t.db
      .update(event)
      .set({ startsAt: new Date(Date.now() - 60_000), endsAt: new Date(Date.now() + 3_600_000) })
      .where(eq(event.id, q.eventId));
    expect((await change({ [q.dietId]: 'Vegan' })).body.error.details).toEqual({ reason: 'answers-closed' });
  });
});

describe('answers at the door and in the export', () => {
  it('show the marked answers on the door’s list and on a scan’s verdict, and every answer in its own column', async () => {
    const q = await eventWithQuestions();
    const staff = await t.signUp('Dora Door');
    await addMember(t, q.organizationId, staff.user.id, 'staff');
    const buyer = await t.signUp('Vera Vegan');
    const placed = await order(buyer.cookie, {
      eventId: q.eventId,
      lines: [
        {
          ticketTypeId: q.standingId,
          quantity: 1,
          answers: [{ [q.dietId]: 'Other', [q.allergyId]: '=cmd|calc', [q.wheelchairId]: true }],
        },
      ],
    });
    const [one] = await t.db.select().from(ticket).where(eq(ticket.orderId, placed.body.result.orderId));

    const door = await watch(url, attendees.name, { eventId: q.eventId }, staff.cookie);
    expect(door.rows().find((row) => row.id === one!.id)!.doorAnswers).toEqual([
      { questionId: q.wheelchairId, label: 'Wheelchair access', kind: 'checkbox', value: true },
    ]);
    const scanned = await t.call(
      scanTicket,
      {
        eventId: q.eventId,
        code: one!.code,
        device: 'Door 1',
        scannedAt: new Date().toISOString(),
        idempotencyKey: randomUUID(),
      },
      staff.cookie,
    );
    expect(scanned.body.result.ticket?.doorAnswers).toEqual([
      expect.objectContaining({ label: 'Wheelchair access', value: true }),
    ]);
    // A mark taken off leaves the door's list at once, whatever the scan read a moment ago.
    await t.call(updateQuestion, { eventId: q.eventId, questionId: q.wheelchairId, label: 'Wheelchair access' }, owner.cookie);
    await expect.poll(() => door.rows().find((row) => row.id === one!.id)!.doorAnswers, { timeout: 10_000 }).toEqual([]);
    door.close();
    await t.call(
      updateQuestion,
      { eventId: q.eventId, questionId: q.wheelchairId, label: 'Wheelchair access', onScanner: true },
      owner.cookie,
    );

    const csv = async (cookie: string) =>
      (await t.app.inject({ method: 'GET', url: `/files/events/${q.eventId}/exports/attendees.csv`, headers: { cookie } })).body
        .trim()
        .split('\r\n');
    const [header, row] = await csv(owner.cookie);
    expect(header!.split(',').slice(-4)).toEqual(['Diet', 'Which allergy?', 'Wheelchair access', 'Laptop']);
    // A formula typed as an answer is written as text.
    expect(row!.split(',').slice(-4)).toEqual(['Other', "'=cmd|calc", 'yes', '']);
    // Door staff get the answers they see at the door only.
    const [staffHeader, staffRow] = await csv(staff.cookie);
    expect(staffHeader!.split(',').slice(-1)).toEqual(['Wheelchair access']);
    expect(staffRow!.split(',').slice(-1)).toEqual(['yes']);
  });
});
