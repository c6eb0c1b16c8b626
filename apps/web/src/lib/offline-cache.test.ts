import { describe, expect, it } from 'vitest';
import { changedChunks } from './offline-cache';

const rows = (count: number) => Array.from({ length: count }, (_, id) => ({ id }));

describe('the offline cache writes only the chunks of a list that changed', () => {
  it('writes every chunk the first time', () => {
    expect(changedChunks(undefined, rows(7), 3)).toEqual([0, 1, 2]);
  });

  it('writes nothing when every row is the same object as before', () => {
    const before = rows(7);
    expect(changedChunks(before, [...before], 3)).toEqual([]);
  });

  it('writes the one chunk that holds a changed row', () => {
    const before = rows(7);
    const after = [...before];
    after[4] = { id: 4 };
    expect(changedChunks(before, after, 3)).toEqual([1]);
  });

  it('writes the last chunk when a row is added, and a new chunk when the last one was full', () => {
    const before = rows(6);
    expect(changedChunks(before, [...before, { id: 6 }], 3)).toEqual([2]);
    const seven = rows(7);
    expect(changedChunks(seven, [...seven, { id: 7 }], 3)).toEqual([2]);
  });

  it('writes every chunk from a removed row on, including a last chunk that got shorter', () => {
    const before = rows(7);
    expect(
      changedChunks(
        before,
        before.filter((row) => row.id !== 1),
        3,
      ),
    ).toEqual([0, 1]);
    expect(changedChunks(before, before.slice(0, 5), 3)).toEqual([1]);
  });

  it('writes no chunk for an empty list', () => {
    expect(changedChunks(rows(3), [], 3)).toEqual([]);
  });
});
