/** Adds `value` to the set of `key`, making the set if there is none. */
export function addToSet<K, V>(map: Map<K, Set<V>>, key: K, value: V) {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

/** Removes `value` from the set of `key`, and the set once it is empty. */
export function removeFromSet<K, V>(map: Map<K, Set<V>>, key: K, value: V) {
  const set = map.get(key);
  set?.delete(value);
  if (set?.size === 0) map.delete(key);
}
