import { t } from '@/lib/i18n';
import type { PopupState, ReadyState } from '@/lib/popup/state';
import { notReadyText } from '@/lib/popup/view';
import type { PopupAppProps } from './popup-props';
import { type HeroTone, VerdictHero } from './VerdictHero';

/** The popup before or without a verdict: starting, no key, no page to filter, or a failure. */
export function NotReady({
  state,
  openOptions,
}: {
  state: Exclude<PopupState, ReadyState>;
  openOptions: PopupAppProps['openOptions'];
}) {
  const tone: HeroTone = state.phase === 'failed' || state.phase === 'no-key' ? 'problem' : 'unknown';
  return (
    <VerdictHero host={null} tone={tone} headline={null} text={notReadyText(state)}>
      {state.phase === 'no-key' && (
        <button type="button" class="btn btn-primary hero-action" onClick={() => openOptions('setup')}>
          {t('popup.openSettings')}
        </button>
      )}
    </VerdictHero>
  );
}
