import { render } from 'preact';
import { OptionsApp } from '@/components/options/OptionsApp';
import { themeItem } from '@/lib/settings/storage';
import { followStoredTheme } from '@/lib/settings/theme';
import './style.css';

followStoredTheme({ root: document.documentElement, cache: localStorage, item: themeItem });
render(<OptionsApp />, document.getElementById('app') as HTMLElement);
