import { useQuery } from '@tanstack/react-query';
import { authClient } from '../../lib/auth-client';

/**
 * Whether the person has a password (undefined while loading, true when that failed). Those who have one confirm
 * sensitive changes with it; those who signed up by email link, phone or a provider cannot.
 */
export function useHasPassword(): boolean | undefined {
  const query = useQuery({
    queryKey: ['account', 'sign-in-methods'],
    queryFn: async () => {
      const result = await authClient.listAccounts();
      if (result.error) throw new Error(result.error.message ?? 'Could not list sign-in methods');
      return result.data;
    },
    select: (accounts) => accounts.some((account) => account.providerId === 'credential'),
  });
  // When the methods could not be read, a password is asked for: the server checks it.
  return query.isError ? true : query.data;
}
