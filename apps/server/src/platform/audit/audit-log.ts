import { randomUUID } from 'node:crypto';
import { personLabel } from '@admit/shared/people';
import type { SessionUser } from '../auth/auth';
import type { Db, Tx } from '../db/database';
import { auditLog } from './schema';

export interface AuditEntry {
  organizationId: string;
  eventId?: string;
  /** Who did it; `id` null for a person without an account (a guest who accepted a ticket sent to them). */
  actor: Pick<SessionUser, 'name' | 'email'> & { id: string | null };
  /** `event.update`, `ticketType.remove`, `event.cancel`… */
  action: string;
  /** The changed thing's name as it was. */
  target: string;
  details?: Record<string, unknown>;
}

/** Records a change in the transaction that makes it: no change without its line, no line without its change. */
export async function recordAudit(tx: Tx | Db, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    id: randomUUID(),
    organizationId: entry.organizationId,
    eventId: entry.eventId ?? null,
    actorId: entry.actor.id,
    actorName: personLabel(entry.actor),
    action: entry.action,
    target: entry.target,
    details: entry.details ?? {},
  });
}
