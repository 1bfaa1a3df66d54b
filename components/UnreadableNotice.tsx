import { useEffect, useState } from 'preact/hooks';
import { onUnreadable } from '@/lib/settings/item';
import { unreadableMessage } from '@/lib/settings/unreadable';
import { WarningIcon } from './icons/Icon';

/**
 * Says which saved data this page could not read (damaged, or written by a newer version): it is
 * shown as empty or default, and saving it again replaces it (lib/settings/item.ts).
 */
export function UnreadableNotice() {
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => onUnreadable((keys) => setMessage(unreadableMessage(keys))), []);
  if (message === null) return null;
  return (
    <div class="message message-warning unreadable-notice">
      <WarningIcon />
      <p class="message-body">{message}</p>
    </div>
  );
}
