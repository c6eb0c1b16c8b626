import { isLocale, locales } from '@admit/shared/locales';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { invitation, organization } from '../../platform/auth/organization-schema';
import { user } from '../../platform/auth/schema';
import { defineJob } from '../../platform/jobs/job-services';
import { composeActionEmail, mailIntl } from '../../platform/mail/compose';
import { mailMessages } from '../../platform/mail/messages';

/**
 * Emails an invitation to its address, in the inviter's language, once (the job may run again).
 * Enqueued with the invitation; one revoked or answered before the email goes out is not sent.
 */
export const sendInvitationJob = defineJob({
  name: 'orgs.sendInvitation',
  data: z.object({ invitationId: z.string(), locale: z.enum(locales) }),
  async handler({ invitationId, locale }, { services, log }) {
    const [found] = await services.db
      .select({ invitation, organizationName: organization.name, inviterName: user.name })
      .from(invitation)
      .innerJoin(organization, eq(organization.id, invitation.organizationId))
      .innerJoin(user, eq(user.id, invitation.inviterId))
      .where(eq(invitation.id, invitationId));
    if (!found || found.invitation.status !== 'pending') {
      log.info({ invitationId }, 'invitation not sent: it is no longer open');
      return;
    }
    const language = isLocale(locale) ? locale : 'en';
    const t = mailIntl(language).formatMessage;
    const names = { inviter: found.inviterName, organization: found.organizationName };
    await services.mailer.send(
      await composeActionEmail({
        to: found.invitation.email,
        locale: language,
        name: null,
        subject: t(mailMessages.inviteSubject, names),
        paragraphs: [t(mailMessages.inviteIntro, { ...names, role: found.invitation.role }), t(mailMessages.inviteHow)],
        action: { label: t(mailMessages.inviteAction), url: `${services.publicUrl}/manage` },
        note: t(mailMessages.inviteIgnore, { organization: found.organizationName, expiresAt: found.invitation.expiresAt }),
      }),
      { idempotencyKey: `invitation:${invitationId}` },
    );
  },
});
