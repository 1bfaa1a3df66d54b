/**
 * Telling the outbox's two kinds of change apart (lib/messaging/protocol.ts `QueuedChange`). Kept
 * apart from the protocol's schemas so the popup can use it without loading zod
 * (docs/architecture.md, "The popup's start path").
 */
import type { ListChange, QueuedChange } from './protocol';

/** Whether a queued change is a list change (the only kind the pages submit). */
export const isListChange = (change: QueuedChange): change is ListChange =>
  change.op === 'add' || change.op === 'remove';

/** Whether a queued or settled change is a list change: for filters over entries and records. */
export const carriesListChange = <T extends { change: QueuedChange }>(
  item: T,
): item is T & { change: ListChange } => isListChange(item.change);
