import { randomUUID } from 'node:crypto';
import { createOrg } from '@admit/shared/orgs';
import { member, organization } from '../../platform/auth/organization-schema';
import { defineCallable } from '../../platform/http/callable';
import { withFreshSlug } from '../../platform/slug';
import { invitationCallables } from './invitations.functions';
import { memberCallables } from './members.functions';
import { userOrgsTopic } from './topics';

export const createOrgCallable = defineCallable(createOrg, {
  auth: 'required',
  async handler(input, ctx) {
    const organizationId = randomUUID();
    const slug = await withFreshSlug(input.name, (slug) =>
      ctx.db.transaction(async (tx) => {
        await tx.insert(organization).values({ id: organizationId, name: input.name, slug });
        await tx.insert(member).values({ id: randomUUID(), organizationId, userId: ctx.user.id, role: 'owner' });
        return slug;
      }),
    );
    ctx.publish(userOrgsTopic(ctx.user.id));
    return { organizationId, slug };
  },
});

export const orgsCallables = [createOrgCallable, ...invitationCallables, ...memberCallables];
