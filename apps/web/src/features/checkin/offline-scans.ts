import type { scanTicketBatch, undoCheckIn, ScanInput, ScanOutput } from '@admit/shared/checkin';
import { contractRef } from '@admit/shared/contract-ref';
import type { QueryClient } from '@tanstack/react-query';
import { callFunction, CallError } from '../../lib/callable';
import { onOfflineDataCleared } from '../../lib/offline-cache';
import { allScanLogs, clearScanLogs, scansOf, updateScan } from './scan-log';

// The scans are sent from the app's first load (a reload at the door sends what waited), so by name:
// the contracts' schemas stay out of that load (decision 0050).
const scanBatch = contractRef<typeof scanTicketBatch>('checkin.scanBatch');
const undo = contractRef<typeof undoCheckIn>('checkin.undo');

export const scanMutationKey = ['checkin', 'scan'] as const;
export const undoMutationKey = ['checkin', 'undo'] as const;

/** No answer (no network, server restarting) or `unavailable`: the same key is safe to send again. */
const unreachable = (error: unknown) =>
  error instanceof CallError &&
  (error.code === 'unavailable' || error.code === 'deadline-exceeded' || (error.code === 'internal' && error.httpStatus === 0));

export interface UndoInput {
  eventId: string;
  scanKey: string;
  device: string;
}

interface Waiting {
  input: ScanInput;
  resolve(answer: ScanOutput): void;
  reject(error: unknown): void;
}

/**
 * Scans that start in the same moment (a whole queue when the network returns) go to the server in
 * one `checkin.scanBatch` call, in the order they were made, one batch at a time; a single scan is
 * a batch of one. A queue of 500 syncs in one request instead of 500 (bench/checkin-sync).
 */
function createScanBatcher(maxBatch = 500) {
  const waiting: Waiting[] = [];
  let sending: Promise<void> = Promise.resolve();
  let scheduled = false;
  const send = async (batch: Waiting[]) => {
    try {
      const { answers } = await callFunction(scanBatch, { scans: batch.map((one) => one.input) });
      batch.forEach((one, index) => one.resolve(answers[index]!));
    } catch (error) {
      for (const one of batch) one.reject(error);
    }
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(() => {
      scheduled = false;
      const batch = waiting.splice(0, maxBatch);
      sending = sending.then(() => send(batch));
      if (waiting.length > 0) schedule();
    }, 0);
  };
  return {
    scan: (input: ScanInput) =>
      new Promise<ScanOutput>((resolve, reject) => {
        waiting.push({ input, resolve, reject });
        schedule();
      }),
    /** Resolves once every scan started before it has been answered. */
    async settled() {
      await new Promise((resolve) => setTimeout(resolve, 0));
      await sending;
    },
  };
}

/**
 * Scans and undos are offline-capable writes (docs/contracts.md): TanStack Query mutations that pause with
 * no network, are kept in the offline cache (so they survive a reload), and are sent in the order
 * they were made when the network returns (the batcher keeps the order; an undo waits for the
 * scans before it). Their functions are registered here, by key, so that mutations restored after a
 * reload know what to run.
 */
export function registerCheckinMutations(queryClient: QueryClient) {
  const batcher = createScanBatcher();
  const common = {
    retry: (failures: number, error: unknown) => unreachable(error),
    retryDelay: (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000),
  };
  queryClient.setMutationDefaults(scanMutationKey, {
    ...common,
    mutationFn: (input: ScanInput) => batcher.scan(input),
    onSuccess: (answer, input: ScanInput) => updateScan(input.eventId, input.idempotencyKey, { server: answer }),
  });
  queryClient.setMutationDefaults(undoMutationKey, {
    ...common,
    mutationFn: async (input: UndoInput) => {
      await batcher.settled();
      // Never before its scan: until the server has answered the scan, this counts as unreachable
      // and is tried again later (an undo that overtook its scan would be lost).
      const scan = scansOf(input.eventId).find((entry) => entry.key === input.scanKey);
      if (scan && !scan.server) throw new CallError('unavailable', 'The scan has not reached the server yet');
      return callFunction(undo, input);
    },
  });
  onOfflineDataCleared(clearScanLogs);
}

/**
 * After a reload: scans the server never answered and that are not waiting in the restored queue
 * (they were being sent, or waiting to retry, when the page went away) are sent again with their
 * own keys; the server applies each key once, so a scan that did arrive is only answered again.
 */
export function resendUnanswered(queryClient: QueryClient) {
  const queued = new Set(
    queryClient
      .getMutationCache()
      .findAll({ mutationKey: scanMutationKey })
      .map((mutation) => (mutation.state.variables as ScanInput | undefined)?.idempotencyKey),
  );
  for (const entry of allScanLogs()) {
    if (entry.server || queued.has(entry.key)) continue;
    const input: ScanInput = {
      eventId: entry.eventId,
      code: entry.code,
      device: entry.device,
      scannedAt: entry.scannedAt,
      idempotencyKey: entry.key,
    };
    sendScan(queryClient, input);
  }
}

/**
 * Sends a scan as an offline-capable write. No component watches it: its answer lands in the scan
 * log (`onSuccess` above), which the verdict reads, and the page is not re-rendered for each step
 * of its way (a door scans every few seconds, on a phone).
 */
export function sendScan(queryClient: QueryClient, input: ScanInput) {
  start(queryClient, scanMutationKey, input);
}

/** Sends an undo as an offline-capable write (after its scan; see `registerCheckinMutations`). */
export function sendUndo(queryClient: QueryClient, input: UndoInput) {
  start(queryClient, undoMutationKey, input);
}

function start(queryClient: QueryClient, mutationKey: readonly unknown[], variables: unknown) {
  // The defaults registered for the key (function, retries, answer) apply. A refusal (access to
  // the event withdrawn) leaves the scan "not synced yet" in the log; it is sent again after a reload.
  void queryClient
    .getMutationCache()
    .build(queryClient, { mutationKey })
    .execute(variables)
    .catch(() => undefined);
}
