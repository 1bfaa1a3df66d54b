/**
 * Faults that tests switch on for the next API calls (of one action, or any), consumed in the
 * order injected.
 */
import { z } from 'zod';

/** Every fault the emulator can inject; the e2e fault matrix has a column for each. */
export const FAULT_KINDS = [
  'http-500',
  'html',
  'malformed-json',
  'slow',
  'drop',
  'odd-reason',
  'redirect',
  'http-503-failure',
  'rate-limit',
] as const;

export const faultSpecSchema = z.object({
  kind: z.enum(FAULT_KINDS),
  /** How many of the next API calls get this fault. */
  count: z.number().int().positive().optional(),
  /** For `slow`: wait this long, then answer normally. */
  delayMs: z.number().int().nonnegative().optional(),
  /** For `odd-reason`, `http-503-failure`, `rate-limit`: the failure reason to send. */
  reason: z.string().optional(),
  /** For `redirect`: where the 302 points (default DEFAULT_REDIRECT_LOCATION). */
  location: z.string().optional(),
  /** For `rate-limit`: the Retry-After header, as sent (default '120'). */
  retryAfter: z.string().optional(),
  /**
   * Only calls of this action (`logs/getstats`) get the fault; others pass it by. A page makes
   * calls of its own at any time (another panel's data, a reload), and one of those must not
   * take the fault meant for the call a test watches.
   */
  action: z.string().min(1).optional(),
});

export type FaultSpec = z.infer<typeof faultSpecSchema>;
export type FaultKind = FaultSpec['kind'];

export interface PendingFault {
  kind: FaultKind;
  remaining: number;
  delayMs: number;
  /** Undefined: the fault's own default text. */
  reason: string | undefined;
  location: string;
  retryAfter: string;
  /** Undefined: any action. */
  action: string | undefined;
}

export const DEFAULT_SLOW_MS = 3000;
/** A plain-http address on another host: following it would hand the key to a stranger. */
export const DEFAULT_REDIRECT_LOCATION = 'http://redirect-target.invalid/collect';

/** Long, with markup, quotes, a line break and non-Latin text: a reason must be shown as text. */
export const DEFAULT_ODD_REASON = `<img src=x onerror="alert('xss')"> Überprüfung fehlgeschlagen – 検証に失敗しました\n${'The request could not be completed because of an unexpected condition. '.repeat(8)}`;

export class FaultQueue {
  private queue: PendingFault[] = [];

  inject(spec: FaultSpec): void {
    const parsed = faultSpecSchema.parse(spec);
    this.queue.push({
      kind: parsed.kind,
      remaining: parsed.count ?? 1,
      delayMs: parsed.delayMs ?? DEFAULT_SLOW_MS,
      reason: parsed.reason,
      location: parsed.location ?? DEFAULT_REDIRECT_LOCATION,
      retryAfter: parsed.retryAfter ?? '120',
      action: parsed.action,
    });
  }

  /** The fault for the API call of `action` being handled now, if any. */
  take(action: string): PendingFault | undefined {
    const index = this.queue.findIndex((fault) => fault.action === undefined || fault.action === action);
    const fault = this.queue[index];
    if (!fault) return undefined;
    fault.remaining--;
    if (fault.remaining <= 0) this.queue.splice(index, 1);
    return { ...fault };
  }

  pending(): PendingFault[] {
    return this.queue.map((fault) => ({ ...fault }));
  }

  clear(): void {
    this.queue = [];
  }
}
