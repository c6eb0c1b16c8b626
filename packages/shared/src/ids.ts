import { z } from 'zod';

/** The id of a stored record (event, ticket type, order…) as callables accept it. */
export const Id = z.string().min(1).max(64);
