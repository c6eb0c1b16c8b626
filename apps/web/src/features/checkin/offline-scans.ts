import { scanTicket, undoCheckIn, type ScanInput } from '@admit/shared/checkin';
import type { QueryClient } from '@tanstack/react-query';
import { callFunction, CallError } from '../../lib/callable';
import { onOfflineDataCleared } from '../../lib/offline-cache';
import { clearScanLogs, updateScan } from './scan-log';

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

/**
 * Scans and undos are offline-capable writes (DESIGN §3.3): TanStack Query mutations that pause with
 * no network, are kept in the offline cache (so they survive a reload), and run one after another
 * in the order they were made (one scope) when the network returns. Their functions are registered
 * here, by key, so that mutations restored after a reload know what to run.
 */
export function registerCheckinMutations(queryClient: QueryClient) {
  const common = {
    scope: { id: 'checkin' },
    retry: (failures: number, error: unknown) => unreachable(error),
    retryDelay: (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000),
  };
  queryClient.setMutationDefaults(scanMutationKey, {
    ...common,
    mutationFn: (input: ScanInput) => callFunction(scanTicket, input),
    onSuccess: (answer, input: ScanInput) => updateScan(input.eventId, input.idempotencyKey, { server: answer }),
  });
  queryClient.setMutationDefaults(undoMutationKey, {
    ...common,
    mutationFn: (input: UndoInput) => callFunction(undoCheckIn, input),
  });
  onOfflineDataCleared(clearScanLogs);
}
