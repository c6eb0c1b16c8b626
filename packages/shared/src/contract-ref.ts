/**
 * A callable or live query by its name, with its contract's types but not its schemas: all a browser
 * needs to call or watch it. The screens a visitor opens first use it (the event list, an event's
 * page), so that their scripts load neither the schema library nor every contract of a capability's
 * module (decision 0050). The name is checked against the contract's: a typo does not compile.
 */
export interface ContractRef<C extends { name: string }> {
  readonly name: C['name'];
  /** Never set: it carries the contract's type. */
  readonly contract?: C;
}

/** `contractRef<typeof publicEvent>('events.publicEvent')`, with `publicEvent` imported as a type. */
export function contractRef<C extends { name: string }>(name: C['name']): ContractRef<C> {
  return { name };
}
