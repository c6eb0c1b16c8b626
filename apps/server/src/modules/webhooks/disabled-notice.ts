import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { member, organization } from '../../platform/auth/organization-schema';
import { user } from '../../platform/auth/schema';
import { defineJob } from '../../platform/jobs/job-services';
import { composeActionEmail, mailIntl } from '../../platform/mail/compose';
import { accountLanguageOf } from '../../platform/mail/language';
import { mailMessages } from '../../platform/mail/messages';
import { webhookEndpoint } from './schema';

/**
 * Tells an organization's admins and owners, in each one's language, that an endpoint was disabled
 * after failing for days. Each email once (the job may run again): keyed by the endpoint and the
 * failing spell.
 */
export const sendDisabledNoticeJob = defineJob({
  name: 'webhooks.sendDisabledNotice',
  data: z.object({ endpointId: z.string() }),
  async handler({ endpointId }, { services }) {
    const [found] = await services.db
      .select({ endpoint: webhookEndpoint, organizationName: organization.name })
      .from(webhookEndpoint)
      .innerJoin(organization, eq(organization.id, webhookEndpoint.organizationId))
      .where(eq(webhookEndpoint.id, endpointId));
    if (!found?.endpoint.failingSince || found.endpoint.disabledReason !== 'failing') return;
    const { endpoint, organizationName } = found;
    const failingSince = found.endpoint.failingSince;
    const admins = await services.db
      .select({ id: user.id, name: user.name, email: user.email })
      .from(member)
      .innerJoin(user, eq(user.id, member.userId))
      .where(and(eq(member.organizationId, endpoint.organizationId), inArray(member.role, ['admin', 'owner'])));
    for (const admin of admins) {
      const locale = (await accountLanguageOf(services.db, admin.id)) ?? 'en';
      const t = mailIntl(locale).formatMessage;
      const facts = { organization: organizationName, url: endpoint.url, failingSince };
      await services.mailer.send(
        await composeActionEmail({
          to: admin.email,
          locale,
          name: admin.name,
          subject: t(mailMessages.webhookDisabledSubject, facts),
          paragraphs: [t(mailMessages.webhookDisabledIntro, facts), t(mailMessages.webhookDisabledHow)],
          action: {
            label: t(mailMessages.webhookDisabledAction),
            url: `${services.publicUrl}/manage/orgs/${encodeURIComponent(endpoint.organizationId)}`,
          },
          note: t(mailMessages.webhookDisabledNote, facts),
        }),
        { idempotencyKey: `webhook-disabled:${endpoint.id}:${failingSince.toISOString()}:${admin.id}` },
      );
    }
  },
});
