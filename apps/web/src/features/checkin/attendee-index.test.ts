import type { AttendeeRow } from '@admit/shared/checkin';
import { describe, expect, it } from 'vitest';
import { AttendeeIndex } from './attendee-index';

const attendee = (id: number, change: Partial<AttendeeRow> = {}): AttendeeRow => ({
  id: `t${id}`,
  code: `Code${String(id).padStart(18, '0')}`,
  holderName: `Person ${id}`,
  holderEmail: `person${id}@example.test`,
  ticketTypeName: 'Entry',
  status: 'valid',
  checkedInAt: null,
  checkedInDevice: null,
  doorAnswers: [],
  ...change,
});

describe("the door's index of its attendee list", () => {
  it('finds a ticket by its code and people by a part of their name or email, ignoring case', () => {
    const index = new AttendeeIndex();
    index.update([attendee(1), attendee(2, { holderName: 'Zoë Winter' }), attendee(12)]);
    expect(index.get('Code000000000000000002')?.holderName).toBe('Zoë Winter');
    expect(index.search('WINTER', 20).map((row) => row.id)).toEqual(['t2']);
    expect(index.search('person1', 20).map((row) => row.id)).toEqual(['t1', 't12']);
    expect(index.search('code000000000000000012', 20).map((row) => row.id)).toEqual(['t12']);
    expect(index.search('Code000000000000000012', 20).map((row) => row.id)).toEqual(['t12']);
    expect(index.search('person', 2)).toHaveLength(2);
  });

  it('finds a ticket by its code typed in the wrong case (Caps Lock), and follows the list for it', () => {
    const index = new AttendeeIndex();
    index.update([attendee(1), attendee(2)]);
    expect(index.getIgnoringCase('CODE000000000000000002')?.id).toBe('t2');
    index.update([attendee(1), attendee(3)]);
    expect(index.getIgnoringCase('CODE000000000000000002')).toBeUndefined();
    expect(index.getIgnoringCase('code000000000000000003')?.id).toBe('t3');
  });

  it('follows a changed row, a new ticket and a ticket that left the list', () => {
    const index = new AttendeeIndex();
    const rows = [attendee(1), attendee(2), attendee(3)];
    index.update(rows);
    const admitted = [rows[0]!, attendee(2, { checkedInAt: '2030-01-01T20:00:00.000Z', holderName: 'Bea' }), rows[2]!];
    index.update(admitted);
    expect(index.get(rows[1]!.code)?.checkedInAt).toBe('2030-01-01T20:00:00.000Z');
    expect(index.search('bea', 20).map((row) => row.id)).toEqual(['t2']);
    expect(index.search('person 2', 20)).toEqual([]);

    // As many rows as before, but one ticket replaced by another.
    index.update([admitted[0]!, admitted[1]!, attendee(4)]);
    expect(index.get(rows[2]!.code)).toBeUndefined();
    expect(index.get(attendee(4).code)?.id).toBe('t4');

    index.update([admitted[0]!]);
    expect(index.get(admitted[1]!.code)).toBeUndefined();
    expect(index.codes.size).toBe(1);
  });
});
