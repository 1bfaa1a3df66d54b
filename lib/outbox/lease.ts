/**
 * A storage-based lease: at most one holder per job name (outbox delivery, registration) across
 * the worker's restarts. A worker global would not do: the worker can be stopped and restarted
 * between two events, and the flag would be gone while a request is still in flight.
 */
import { leasesItem } from '@/lib/settings/storage';

type Leases = Awaited<ReturnType<typeof leasesItem.getValue>>;

/**
 * Identifies this JavaScript context. The extension runs one background worker at a time, so a
 * lease taken by another instance belongs to a worker that was stopped: it is free at once
 * rather than after its expiry. This constant is not state: losing it with the worker is the point.
 */
const INSTANCE_ID = randomId();

export function randomId(): string {
  return globalThis.crypto.randomUUID();
}

export interface LeaseOptions {
  /** How long the lease holds without renewal; renew before each step of a long job. */
  ttlMs: number;
  now?: () => number;
  /** For tests: pretend to be another worker instance. */
  instance?: string;
}

export interface Lease {
  readonly holder: string;
  /** Pushes the expiry forward; false when the lease was lost (expired and taken). */
  renew(): Promise<boolean>;
  release(): Promise<void>;
}

/**
 * Runs `fn` with no other `exclusively(name, …)` of the extension running: for read-modify-write
 * of a storage item, whose reads and writes would otherwise interleave between two events.
 * Web Locks make it atomic for every page of the extension; without them (tests), a promise chain
 * orders the calls of this context. Holds no state beyond the calls in progress.
 */
const chains = new Map<string, Promise<unknown>>();
export function exclusively<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (locks) return locks.request(`dnsfc-${name}`, fn) as Promise<T>;
  const previous = chains.get(name) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.catch(() => undefined);
  chains.set(name, settled);
  void settled.then(() => {
    if (chains.get(name) === settled) chains.delete(name);
  });
  return run;
}

/** Takes the lease `name`, or returns null while someone else holds it. */
export async function tryAcquireLease(name: string, options: LeaseOptions): Promise<Lease | null> {
  const now = options.now ?? Date.now;
  const instance = options.instance ?? INSTANCE_ID;
  const holder = randomId();
  const held = () => ({ holder, instance, expiresAt: now() + options.ttlMs });
  const acquired = await exclusively('leases', async () => {
    const leases = await leasesItem.getValue();
    const current = leases[name];
    if (current && current.instance === instance && current.expiresAt > now()) return false;
    await leasesItem.setValue({ ...leases, [name]: held() });
    return true;
  });
  if (!acquired) return null;
  /** Writes `change` of the stored leases while this one is still ours; false when it is not. */
  const whileHeld = (change: (leases: Leases) => Leases) =>
    exclusively('leases', async () => {
      const leases = await leasesItem.getValue();
      if (leases[name]?.holder !== holder) return false;
      await leasesItem.setValue(change(leases));
      return true;
    });
  return {
    holder,
    renew: () => whileHeld((leases) => ({ ...leases, [name]: held() })),
    release: async () => {
      await whileHeld(({ [name]: _released, ...rest }) => rest);
    },
  };
}
