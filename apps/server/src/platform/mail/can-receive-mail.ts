import { sql, type SQL } from 'drizzle-orm';

// Who can be emailed at all: people who signed up with a phone number get a reserved `.invalid`
// address until they add theirs, and a guest-list plus-one has none. Nothing is made or enqueued
// for them (an email job that would only find out costs a rush as much as one that sends).

/** Whether `email` is an address that can receive mail. */
export const canReceiveMail = (email: string) => email.includes('@') && !/\.invalid$/i.test(email);

/** The same rule in SQL, over an address column or expression. */
export const canReceiveMailSql = (email: SQL) => sql`(position('@' in ${email}) > 0 and lower(${email}) not like '%.invalid')`;
