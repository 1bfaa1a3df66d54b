import { t } from '@/lib/i18n';
import { AccountPanel } from './AccountPanel';
import { AccountsSettings, ActiveAccountBar } from './AccountsSettings';
import { AppearanceSection } from './AppearanceSection';
import { BackupSection } from './BackupSection';
import { DiagnosisSection } from './DiagnosisSection';
import { DynamicIpSection } from './DynamicIpSection';
import { LogsSection } from './LogsSection';
import { OtherAccountChangesSection } from './OtherAccountChanges';
import { SetupSection } from './SetupSection';

export function OptionsApp() {
  return (
    <main class="options">
      <h1>{t('options.heading')}</h1>
      <ActiveAccountBar />
      <SetupSection />
      <AccountsSettings />
      <OtherAccountChangesSection />
      <AccountPanel />
      <DynamicIpSection />
      <DiagnosisSection />
      <LogsSection />
      <AppearanceSection />
      <BackupSection />
    </main>
  );
}
