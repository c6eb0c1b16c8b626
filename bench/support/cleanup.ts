/**
 * What a run started (a scratch database, servers, pools, processes), undone last first at the end.
 * Also on an uncaught exception: autocannon throws some errors outside any promise, where no
 * try/finally sees them, and a benchmark must not leave a server running or a database behind.
 * And on Ctrl-C or SIGTERM: a long run stopped by hand leaves nothing behind either.
 */
export function cleanupOnExit() {
  const steps: { what: string; undo(): unknown }[] = [];
  let running: Promise<void> | undefined;
  const run = () =>
    (running ??= (async () => {
      for (const step of steps.reverse()) {
        try {
          await step.undo();
        } catch (error) {
          console.error(`clean-up: ${step.what} failed`, error);
        }
      }
    })());
  process.once('uncaughtException', (error) => {
    console.error(error);
    void run().finally(() => process.exit(1));
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      console.error(`${signal}: cleaning up`);
      void run().finally(() => process.exit(130));
    });
  return {
    add(what: string, undo: () => unknown) {
      steps.push({ what, undo });
    },
    run,
  };
}
