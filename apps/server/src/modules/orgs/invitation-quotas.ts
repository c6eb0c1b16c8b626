import type { Tx } from '../../platform/db/database';
import type { AuthedCallContext } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { consumeQuotas, quotaKey } from '../../platform/quotas/call-quota';

/**
 * Counts an invitation against its sender's account and its recipient's address
 * (INVITATIONS_*, decision 0030): an invitation is an email with the sender's words in it, to
 * anyone. Called in the transaction that creates the invitation, so an invitation that is refused
 * for another reason (a member already, one still pending) is not counted.
 */
export async function countInvitation(tx: Tx, ctx: AuthedCallContext, recipient: string): Promise<void> {
  const { INVITATIONS_WINDOW_SECONDS: windowSeconds, INVITATIONS_PER_ACCOUNT, INVITATIONS_PER_RECIPIENT } = ctx.config;
  const wait = await consumeQuotas(tx, [
    { key: quotaKey('orgs.invite:account', ctx.user.id), limit: INVITATIONS_PER_ACCOUNT, windowSeconds },
    { key: quotaKey('orgs.invite:recipient', recipient), limit: INVITATIONS_PER_RECIPIENT, windowSeconds },
  ]);
  if (wait !== null)
    throw new CallableError('resource-exhausted', `Too many invitations; try again in ${wait} s`, {
      reason: 'too-many-invitations',
      retryAfterSeconds: wait,
    });
}
