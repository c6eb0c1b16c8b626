import type { MessageDescriptor } from 'react-intl';

/**
 * Message descriptors whose values are checked at run time, not by react-intl 12's typed
 * descriptors (which cannot be indexed by a key computed at run time).
 */
export function untyped<K extends string>(descriptors: Record<K, MessageDescriptor>): Record<K, MessageDescriptor> {
  return descriptors;
}
