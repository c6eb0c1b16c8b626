import {
  isPluralElement,
  isSelectElement,
  isTagElement,
  parse,
  TYPE,
  type MessageFormatElement,
} from '@formatjs/icu-messageformat-parser';

/** Calls visit for every element of a parsed message, inside tags and plural/select options too. */
export function walkMessage(elements: MessageFormatElement[], visit: (element: MessageFormatElement) => void): void {
  for (const element of elements) {
    visit(element);
    if (isTagElement(element)) walkMessage(element.children, visit);
    if (isPluralElement(element) || isSelectElement(element)) {
      for (const option of Object.values(element.options)) walkMessage(option.value, visit);
    }
  }
}

/**
 * The argument names (`{name}`, `{count, plural, ...}`) and tag names (`<link>`) an ICU message
 * uses, sorted: a translation must keep the signature of its English text. Throws on a message
 * that is not valid ICU MessageFormat.
 */
export function messageSignature(message: string): { arguments: string[]; tags: string[] } {
  const argumentNames = new Set<string>();
  const tagNames = new Set<string>();
  walkMessage(parse(message, { requiresOtherClause: false }), (element) => {
    if (isTagElement(element)) tagNames.add(element.value);
    else if (element.type !== TYPE.literal && element.type !== TYPE.pound) argumentNames.add(element.value);
  });
  return { arguments: [...argumentNames].sort(), tags: [...tagNames].sort() };
}
