/**
 * The worker's jobs (lib/messaging/handlers.ts `WorkerJobs`) as one shared fake: every job answers
 * as a service that takes everything, for one active account, with no policy. A test passes the
 * jobs it looks at; each job is a `vi.fn`, so a test can count its calls.
 */
import { type Mock, vi } from 'vitest';
import type { WorkerJobs } from '@/lib/messaging/handlers';
import { noPolicy } from './fake-managed-storage';

export type FakeWorkerJobs = { [Job in keyof WorkerJobs]: Mock<WorkerJobs[Job]> };

export function fakeWorkerJobs(
  overrides: Partial<WorkerJobs> = {},
  activeId = 'home-account-0001',
): FakeWorkerJobs {
  const jobs: WorkerJobs = {
    submit: async () => ({ state: 'delivered', message: 'ok' }),
    submitToProfiles: async () => ({ outcomes: [] }),
    register: async () => null,
    deliverOutbox: async () => ({ remaining: [] }),
    temporaryAllow: async () => ({ state: 'delivered', message: 'ok' }),
    otherAccountChanges: async () => ({ count: 0 }),
    removeAccount: async () => ({ removed: true, discarded: 0 }),
    unbreak: async () => ({ state: 'delivered', message: 'ok', allowed: [] }),
    reviewUnbreak: async () => ({ state: 'delivered', message: 'ok' }),
    accountNames: async () => ({ activeId, names: new Map([[activeId, 'Home']]) }),
    policy: noPolicy,
    ...overrides,
  };
  return Object.fromEntries(Object.entries(jobs).map(([job, run]) => [job, vi.fn(run)])) as FakeWorkerJobs;
}
