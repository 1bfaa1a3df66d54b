/**
 * The popup's header: the product's icon and name, a place for controls about the account (the
 * Account combobox when there are several accounts), and the way to the settings.
 */
import type { ComponentChildren } from 'preact';
import { t } from '@/lib/i18n';
import type { OptionsSection } from '@/lib/popup/view';
import { ProductIcon, SettingsIcon } from '../icons/Icon';

export function PopupHeader({
  openOptions,
  children,
}: {
  openOptions(section?: OptionsSection): void;
  /** Between the name and the settings button: the Account combobox goes here. */
  children?: ComponentChildren;
}) {
  return (
    <header class="popup-header">
      <ProductIcon class="product-icon" />
      <h1 class="product-name">{t('extName')}</h1>
      <div class="header-slot">{children}</div>
      <button
        type="button"
        class="btn btn-ghost icon-button"
        title={t('popup.settings')}
        aria-label={t('popup.settings')}
        onClick={() => openOptions()}
      >
        <SettingsIcon />
      </button>
    </header>
  );
}
