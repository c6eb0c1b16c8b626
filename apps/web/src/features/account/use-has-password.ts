import { useQuery } from '@tanstack/react-query';
import { authClient } from '../../lib/auth-client';

/**
 * Whether the person has a password (undefined while loading). Those who have one confirm
 * sensitive changes with it; those who signed up by email link, phone or a provider cannot.
 */
export function useHasPassword(): boolean | undefined {
  return useQuery({
    queryKey: ['account', 'sign-in-methods'],
    queryFn: async () => {
      const result = await authClient.listAccounts();
      if (result.error) throw new Error(result.error.message ?? 'Could not list sign-in methods');
      return result.data;
    },
    select: (accounts) => accounts.some((account) => account.providerId === 'credential'),
  }).data;
}
