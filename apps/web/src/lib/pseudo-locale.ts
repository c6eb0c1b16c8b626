import {
  isLiteralElement,
  isPluralElement,
  isSelectElement,
  isTagElement,
  type MessageFormatElement,
} from '@formatjs/icu-messageformat-parser';

// A pseudo-language for development: every English message with its letters accented, 40% longer
// and in brackets ("[Ŝîĝñ îñ ~~~~]"). A screen shown in it makes plain at a glance which text is not
// from the catalog (no accents), and where a longer translation will be clipped or wrap badly (a
// bracket missing). Only in development: the language switch offers it when Vite serves the app.

const accented: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, index) => [
    letter,
    [...'åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][index]!,
  ]),
);

/** The same text with accented letters. */
const accent = (text: string) => text.replace(/[a-zA-Z]/g, (letter) => accented[letter] ?? letter);

/** Accents every literal part of a parsed message (inside tags, plural and select branches too). */
function transform(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (isLiteralElement(element)) return { ...element, value: accent(element.value) };
    if (isTagElement(element)) return { ...element, children: transform(element.children) };
    if (isPluralElement(element) || isSelectElement(element)) {
      const options = Object.fromEntries(
        Object.entries(element.options).map(([key, option]) => [key, { ...option, value: transform(option.value) }]),
      );
      return { ...element, options } as MessageFormatElement;
    }
    return element;
  });
}

/** The length of the literal text of a message (of its `other` case in a plural or select), for its padding. */
function literalLength(elements: MessageFormatElement[]): number {
  return elements.reduce((length, element) => {
    if (isLiteralElement(element)) return length + element.value.length;
    if (isTagElement(element)) return length + literalLength(element.children);
    if (isPluralElement(element) || isSelectElement(element)) return length + literalLength(element.options.other?.value ?? []);
    return length;
  }, 0);
}

/**
 * The pseudo-language's catalog made from the English one, parsed (as the build gives it,
 * compiled-messages.ts): accented, padded with "~" by 40% of its text, in brackets.
 */
export function pseudoLocalize(catalog: Record<string, MessageFormatElement[]>): Record<string, MessageFormatElement[]> {
  const pseudo: Record<string, MessageFormatElement[]> = {};
  for (const [id, elements] of Object.entries(catalog)) {
    const padding = '~'.repeat(Math.ceil(literalLength(elements) * 0.4));
    pseudo[id] = [
      { type: 0, value: '[' },
      ...transform(elements),
      { type: 0, value: `${padding ? ` ${padding}` : ''}]` },
    ] as MessageFormatElement[];
  }
  return pseudo;
}
