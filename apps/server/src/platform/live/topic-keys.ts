// A change topic may name the rows that changed: `event:<id>:tickets` with the order ids whose
// tickets changed. A live query that can read rows by those keys (LiveQuery.keyed) then reads only
// them instead of its whole list; any other watcher of the topic reads its rows again as usual.

/** More keys than this in one window and the change counts as one to the whole topic. */
export const maxKeysPerTopic = 200;

const separator = '\t';

/** The topic, naming the keys of the rows that changed. */
export function topicWithKeys(topic: string, keys: readonly string[]): string {
  if (keys.length === 0 || keys.length > maxKeysPerTopic) return topic;
  return `${topic}${separator}${keys.join(',')}`;
}

/** A published topic and the keys it names, or null when the whole topic changed. */
export function splitTopic(published: string): { topic: string; keys: string[] | null } {
  const at = published.indexOf(separator);
  if (at < 0) return { topic: published, keys: null };
  return {
    topic: published.slice(0, at),
    keys: published
      .slice(at + 1)
      .split(',')
      .filter(Boolean),
  };
}

/** Changes per topic: the keys of the rows that changed, or null for the whole topic. */
export type TopicChanges = Map<string, Set<string> | null>;

/** Adds a published topic to `changes`: keys add up, and a whole-topic change wins. */
export function addChange(changes: TopicChanges, published: string) {
  const { topic, keys } = splitTopic(published);
  const known = changes.get(topic);
  if (known === null) return;
  if (keys === null) {
    changes.set(topic, null);
    return;
  }
  const merged = known ?? new Set<string>();
  for (const key of keys) merged.add(key);
  changes.set(topic, merged.size > maxKeysPerTopic ? null : merged);
}
