import { render } from 'preact';
import { OptionsApp } from '@/components/options/OptionsApp';
import './style.css';

render(<OptionsApp />, document.getElementById('app') as HTMLElement);
