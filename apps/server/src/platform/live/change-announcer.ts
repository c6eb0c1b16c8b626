import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import { addChange, topicWithKeys, type TopicChanges } from './topic-keys';

/** The channel every server process listens on for changes (the LiveHub). */
export const changesChannel = 'admit_changes';
/**
 * One NOTIFY per topic per window at most (a NOTIFY in every write transaction cut a measured write
 * rate by 4.5×). 50 ms keeps a change's way to the browser under 100 ms while orders stream in;
 * long lists read only the rows a change names (topic-keys.ts), so a shorter window costs little.
 */
const coalesceWindowMs = 50;
/** NOTIFY payloads are limited to 8000 bytes. */
const maxPayloadBytes = 7900;

/**
 * Announces committed changes to every server process with `pg_notify`: topics gathered over a
 * window, one line each (with the keys they name), split over several notifications when long.
 * The first change after a quiet window goes out at once.
 */
export class ChangeAnnouncer {
  private readonly pending: TopicChanges = new Map();
  private timer: NodeJS.Timeout | undefined;
  private coolingUntil = 0;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Announces that rows behind these topics changed (call after the transaction committed). */
  publish(topics: readonly string[]) {
    for (const topic of topics) addChange(this.pending, topic);
    if (this.timer) return;
    const delay = Math.max(0, this.coolingUntil - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.coolingUntil = Date.now() + coalesceWindowMs;
      void this.flush();
    }, delay);
  }

  /** Sends what is gathered now (the server stops). */
  async stop() {
    clearTimeout(this.timer);
    await this.flush();
  }

  private async flush() {
    if (this.pending.size === 0) return;
    const topics = [...this.pending].map(([topic, keys]) => (keys ? topicWithKeys(topic, [...keys]) : topic));
    this.pending.clear();
    const payloads: string[] = [];
    let current = '';
    for (const topic of topics) {
      if (current && Buffer.byteLength(current) + Buffer.byteLength(topic) + 1 > maxPayloadBytes) {
        payloads.push(current);
        current = '';
      }
      current = current ? `${current}\n${topic}` : topic;
    }
    if (current) payloads.push(current);
    for (const payload of payloads) {
      try {
        await this.database.notify(changesChannel, payload);
      } catch (error) {
        this.log.error({ err: error }, 'live: publishing a change failed');
      }
    }
  }
}
