import { describe, expect, it } from 'vitest';
import {
  checkImportRow,
  completeImportReport,
  ImportRowInput,
  importRowIdentity,
  neutralizeFormula,
  usesDecimalComma,
  type ImportRowReport,
} from './csv';

describe('CSV cells', () => {
  it('neutralises = + - @ tab and carriage return at the start of a cell, and nothing else', () => {
    for (const value of ['=1+1', '+49', '-2', '@SUM(A1)', '\tx', '\rx']) expect(neutralizeFormula(value)).toBe(`'${value}`);
    for (const value of ['Ann', '', ' =1', 'a=b', "'quoted"]) expect(neutralizeFormula(value)).toBe(value);
  });

  it('neutralises the full-width and small forms of = + - @ at the start of a cell like their ASCII forms', () => {
    for (const value of ['＝1+1', '＝HYPERLINK("http://x")', '＋49', '－2', '＠SUM(A1)', '﹦1', '﹢1', '﹣1', '﹫x'])
      expect(neutralizeFormula(value)).toBe(`'${value}`);
    for (const value of ['Ｊａｎ', 'ａ＝ｂ', '　＝1', '😀=1', 'Ünal']) expect(neutralizeFormula(value)).toBe(value);
  });

  it('neutralises every line of a cell that starts as a formula, after a CR, an LF or a CRLF, and leaves the others', () => {
    expect(neutralizeFormula('<b>x</b>\n=1+1\n@SUM(1)')).toBe("<b>x</b>\n'=1+1\n'@SUM(1)");
    expect(neutralizeFormula('a\r-1\r\n+2\n\tb\n＝3')).toBe("a\r'-1\r\n'+2\n'\tb\n'＝3");
    expect(neutralizeFormula('=1\n=2')).toBe("'=1\n'=2");
    expect(neutralizeFormula('\n=2')).toBe("'\n'=2");
    expect(neutralizeFormula('first\nsecond\r\n\nthird = 3')).toBe('first\nsecond\r\n\nthird = 3');
  });

  it('knows which locales write decimals with a comma', () => {
    expect(usesDecimalComma('de')).toBe(true);
    expect(usesDecimalComma('en')).toBe(false);
  });
});

describe('the whole-file import report', () => {
  const row = (line: number, key: string | null, quantity = 1, status: ImportRowReport['status'] = 'ok'): ImportRowReport => ({
    line,
    status,
    errors: [],
    key,
    ticketTypeId: 't1',
    quantity,
  });
  const capacity = { event: 3, ticketTypes: [{ id: 't1', name: 'Standing', remaining: 10 }] };

  it('marks later repeats of a key as duplicates of the first line', () => {
    const report = completeImportReport([row(2, 'a'), row(3, 'b'), row(4, 'a')], capacity);
    expect(report[2]).toMatchObject({ status: 'error', errors: [{ code: 'duplicate-row', line: 2 }] });
  });

  it('fills what is left in file order and marks the rows that no longer fit', () => {
    const report = completeImportReport([row(2, 'a', 2), row(3, 'b', 2), row(4, 'c', 1)], capacity);
    expect(report.map((one) => one.status)).toEqual(['ok', 'error', 'ok']);
  });

  it('can run again over its own output with the same answer (chunks are joined in the browser)', () => {
    const once = completeImportReport([row(2, 'a', 2), row(3, 'a'), row(4, 'b', 2)], capacity);
    expect(completeImportReport(once, capacity)).toEqual(once);
  });

  it('leaves rows imported before out of the capacity count', () => {
    const report = completeImportReport([row(2, 'a', 3, 'imported'), row(3, 'b', 3)], capacity);
    expect(report.map((one) => one.status)).toEqual(['imported', 'ok']);
  });
});

describe('a guest-list row', () => {
  const types = [{ id: 'standing', name: 'Standing' }];
  const check = (row: { name?: string; email?: string }) => checkImportRow(ImportRowInput.parse({ line: 2, ...row }), types);

  it('may be a name without an email (a plus-one), keyed by the name and the ticket type', () => {
    const plusOne = check({ name: ' Anna  Host +1 ', email: '' });
    expect(plusOne.errors).toEqual([]);
    expect(importRowIdentity(plusOne)).toBe('name:anna host +1|type:standing');
    expect(importRowIdentity(check({ name: 'anna host +1' }))).toBe(importRowIdentity(plusOne));
  });

  it('is keyed by its email when it has one, whatever its name', () => {
    expect(importRowIdentity(check({ name: 'Ann', email: 'ANN@example.test' }))).toBe('email:ann@example.test|type:standing');
  });

  it('needs an email or a name', () => {
    expect(check({ name: ' ', email: '' }).errors).toEqual([{ code: 'email-missing', field: 'email' }]);
  });
});
