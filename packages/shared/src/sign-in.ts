import { z } from 'zod';

/** A federated provider the server has configured: Better Auth's provider id and its name for people. */
export const FederatedProvider = z.object({ id: z.string(), name: z.string() });
export type FederatedProvider = z.infer<typeof FederatedProvider>;

/** GET /api/sign-in-methods: what the sign-in and sign-up pages offer besides email. */
export const SignInMethods = z.object({ providers: z.array(FederatedProvider) });
export type SignInMethods = z.infer<typeof SignInMethods>;
