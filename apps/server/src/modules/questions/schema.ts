import type { QuestionCondition, QuestionKind } from '@admit/shared/questions';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { event } from '../events/schema';

/**
 * A question an event asks each attendee at checkout (decision 0048). Answers are not kept here:
 * each ticket carries its own (`ticket.answers`), and the places of an order not paid yet carry
 * theirs in its lines (`order_line.answers`), by question id.
 */
export const eventQuestion = pgTable(
  'event_question',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => event.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    kind: text('kind').$type<QuestionKind>().notNull(),
    label: text('label').notNull(),
    help: text('help').notNull().default(''),
    required: boolean('required').notNull().default(false),
    /** A choice question's options, in order; an answer is one of them (or several). */
    options: text('options')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The ticket types it is asked for; none: every type. */
    ticketTypeIds: text('ticket_type_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Asked only when an earlier choice question was answered with one of some options. */
    showIf: jsonb('show_if').$type<QuestionCondition>(),
    onScanner: boolean('on_scanner').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    /** Set by a trigger on every change (the REST API's `updated_since`: decision 0062). */
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('event_question_event_idx').on(table.eventId, table.position)],
);
