import type { Config } from '../config';
import type { Db } from '../db/database';
import type { FileStorage } from '../files/storage';
import type { Mailer } from '../mail/mailer';
import type { PaymentProvider } from '../payments/payment-provider';
import { defineJob as defineQueueJob, type JobDefinition, type JobSender } from './job-queue';

/** What every job's handler may use: the same parts a callable has, without a request. */
export interface JobServices {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  payments: PaymentProvider;
  config: Config;
  /** Topics whose live queries must refresh (the job's change has committed). */
  publish(...topics: string[]): void;
  /** Jobs a job enqueues in turn. */
  jobs: JobSender;
  /** Uploaded files (images), on disk or in S3. */
  storage: FileStorage;
}

export type AdmitJob<Data = unknown> = JobDefinition<Data, JobServices>;

/** Declares one of Admit's jobs next to the module that owns it (`<module>.jobs.ts`). */
export const defineJob = <Data>(definition: AdmitJob<Data>): AdmitJob<Data> => defineQueueJob(definition);
