import { describe, expect, it } from 'vitest';
import { currencyDigits, formatMoney, toMinorUnits } from './money';

describe('money in minor units', () => {
  it('knows that yen have no decimals, euros two and Kuwaiti dinars three', () => {
    expect([currencyDigits('JPY'), currencyDigits('EUR'), currencyDigits('KWD')]).toEqual([0, 2, 3]);
  });

  it('formats yen without decimals in English, German and Japanese', () => {
    expect(formatMoney('en', 1500, 'JPY')).toBe('¥1,500');
    expect(formatMoney('de', 1500, 'JPY').replace(/\s/g, ' ')).toBe('1.500 ¥');
    expect(formatMoney('ja', 1500, 'JPY')).toBe('￥1,500');
  });

  it('formats euros with the decimal comma where the viewer uses one', () => {
    expect(formatMoney('en', 1550, 'EUR')).toBe('€15.50');
    expect(formatMoney('de', 1550, 'EUR').replace(/\s/g, ' ')).toBe('15,50 €');
  });

  it('turns what a person types into minor units of the currency', () => {
    expect(toMinorUnits(15.5, 'EUR')).toBe(1550);
    expect(toMinorUnits(1500, 'JPY')).toBe(1500);
    expect(toMinorUnits(0.1 + 0.2, 'EUR')).toBe(30);
  });
});
