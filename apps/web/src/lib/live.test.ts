import type { LiveRow } from '@admit/shared/live';
import { describe, expect, it } from 'vitest';
import { applyChange, shareLiveRows } from './live';

type Row = LiveRow & { name: string };
const row = (id: string, name = id): Row => ({ id, name });

describe('a change from the live channel is applied to the rows kept for a subscription', () => {
  it('replaces a changed row where it was and keeps every other row the same object', () => {
    const rows = [row('a'), row('b'), row('c')];
    const listener = { rows };
    applyChange(listener, { type: 'changes', id: 's1', upserts: [row('b', 'Bea')], removes: [], version: 2 });
    expect(listener.rows).toEqual([row('a'), row('b', 'Bea'), row('c')]);
    expect(listener.rows[0]).toBe(rows[0]);
    expect(listener.rows[2]).toBe(rows[2]);
    expect(rows[1]).toEqual(row('b')); // the list it had before is not changed in place
  });

  it('adds new rows at the end, drops removed ones, and follows a new order', () => {
    const listener = { rows: [row('a'), row('b'), row('c')] };
    applyChange(listener, { type: 'changes', id: 's1', upserts: [row('d')], removes: ['b'], version: 2 });
    expect(listener.rows.map((one) => one.id)).toEqual(['a', 'c', 'd']);
    applyChange(listener, { type: 'changes', id: 's1', upserts: [row('e'), row('a', 'Ada')], removes: [], version: 3 });
    expect(listener.rows).toEqual([row('a', 'Ada'), row('c'), row('d'), row('e')]);
    applyChange(listener, {
      type: 'changes',
      id: 's1',
      upserts: [row('f')],
      removes: [],
      order: ['f', 'e', 'd', 'c', 'a'],
      version: 4,
    });
    expect(listener.rows.map((one) => one.id)).toEqual(['f', 'e', 'd', 'c', 'a']);
    applyChange(listener, { type: 'changes', id: 's1', upserts: [row('c', 'Cy')], removes: [], version: 5 });
    expect(listener.rows.map((one) => one.name)).toEqual(['f', 'e', 'd', 'Cy', 'Ada']);
  });
});

describe('live rows in the query cache keep their identity by id', () => {
  it('keeps the list itself when every row is equal', () => {
    const before = [row('a'), row('b')];
    expect(shareLiveRows(before, [row('a'), row('b')])).toBe(before);
  });

  it('keeps equal rows as the same objects when a new row comes on top', () => {
    const before = [row('a'), row('b')];
    const after = shareLiveRows(before, [row('new'), row('a'), row('b')]) as Row[];
    expect(after).toEqual([row('new'), row('a'), row('b')]);
    expect(after[1]).toBe(before[0]);
    expect(after[2]).toBe(before[1]);
  });

  it('gives a changed row as its new value', () => {
    const before = [row('a'), row('b')];
    const after = shareLiveRows(before, [row('a'), row('b', 'Bea')]) as Row[];
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toEqual(row('b', 'Bea'));
  });
});
