import { t } from '@/lib/i18n';
import type { PopupView } from '@/lib/popup/view';
import type { ReadyProps } from './popup-props';

/** How current the verdict is, when it is not current, and the button that makes it so. */
export function Freshness({
  state,
  view,
  controller,
  openOptions,
}: Omit<ReadyProps, 'mark' | 'now' | 'extras'> & { view: PopupView }) {
  const refresh = (state.problem !== null || !view.fresh) && !state.refreshing;
  if (state.problem?.kind === 'settings') {
    return (
      <button type="button" class="btn btn-primary hero-action" onClick={() => openOptions('setup')}>
        {t('popup.openSettings')}
      </button>
    );
  }
  if (!view.freshnessText && !refresh) return null;
  return (
    <p class="freshness">
      {view.freshnessText}{' '}
      {refresh && (
        <button type="button" class="link" onClick={() => void controller.refresh()}>
          {t('popup.refresh')}
        </button>
      )}
    </p>
  );
}
