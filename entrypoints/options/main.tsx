import { render } from 'preact';
import { OptionsApp } from '@/components/options/OptionsApp';
import { PolicyProvider } from '@/components/options/PolicyProvider';
import { messageLocale, t } from '@/lib/i18n';
import { themeItem } from '@/lib/settings/storage';
import { followStoredTheme } from '@/lib/theme/theme';
import './style.css';
import './shell.css';

// index.html holds the English title and lang; the page follows the catalogue in use.
document.documentElement.lang = messageLocale();
document.title = t('options.pageTitle');
followStoredTheme({ root: document.documentElement, cache: localStorage, item: themeItem });
render(
  <PolicyProvider>
    <OptionsApp />
  </PolicyProvider>,
  document.getElementById('app') as HTMLElement,
);
