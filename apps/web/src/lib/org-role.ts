import type { OrgRole } from '@admit/shared/orgs';
import { myOrgs } from '@admit/shared/orgs';
import { useLiveQuery } from './live';

/**
 * The signed-in person's role in an organization, live (undefined while it loads or for a
 * stranger): screens show only the controls the role can use. The server checks every call anyway.
 */
export function useOrgRole(organizationId: string | undefined): OrgRole | undefined {
  const { rows } = useLiveQuery(myOrgs, {}, { enabled: organizationId !== undefined });
  return rows?.find((row) => row.id === organizationId)?.role;
}

/** Admins and owners manage events; staff work the door. */
export const managesEvents = (role: OrgRole | undefined) => role === 'admin' || role === 'owner';
