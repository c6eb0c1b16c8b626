import type { FastifyBaseLogger } from 'fastify';

/**
 * How long an idle worker waits before it looks for jobs itself: the process's look for due jobs
 * (lookForDueJobs) wakes it long before, and a worker that finished a batch looks again at once.
 * This is what is left when that look fails.
 */
export const idleWorkerSeconds = 30;

/**
 * Every `everySeconds`, one statement asks which of the queues `names` have a job due (pg-boss's
 * partial index on name and start time answers it), and `wake` wakes their workers, which otherwise
 * look only every idleWorkerSeconds (job-queue.ts). Fifty workers each asking twice a second kept an
 * idle server a third busy, on PGlite, where every statement runs in the server's own process
 * (decision 0073). Returns what stops the looks.
 */
export function lookForDueJobs(input: {
  executeSql: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;
  log: FastifyBaseLogger;
  schema: string;
  names: string[];
  everySeconds: number;
  wake: (name: string) => void;
}): () => void {
  let stopped = false;
  let next: NodeJS.Timeout | undefined;
  const look = async () => {
    try {
      const { rows } = await input.executeSql(
        `select q.name from unnest($1::text[]) as q(name)
          where exists (select 1 from ${input.schema}.job j
                         where j.name = q.name and j.state < 'active' and j.start_after <= now())`,
        [input.names],
      );
      if (!stopped) for (const row of rows as { name: string }[]) input.wake(row.name);
    } catch (error) {
      input.log.warn({ err: error }, 'due jobs not looked for');
    }
    if (stopped) return;
    next = setTimeout(() => void look(), input.everySeconds * 1000);
    next.unref();
  };
  void look();
  return () => {
    stopped = true;
    clearTimeout(next);
  };
}
