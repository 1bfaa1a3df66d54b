import { t } from '@/lib/i18n';

/** First run: what the three Setup fields are for, and what Save does next. */
export function Welcome() {
  return (
    <div class="welcome card">
      <h2>{t('welcome.heading')}</h2>
      <p>{t('welcome.intro')}</p>
      <ol>
        <li>{t('welcome.stepKey')}</li>
        <li>{t('welcome.stepAddress')}</li>
        <li>{t('welcome.stepSave')}</li>
      </ol>
    </div>
  );
}
