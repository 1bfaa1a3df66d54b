import { useId, useRef, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { ApiError } from '@/lib/api/errors';
import { backupFileName, backupText, collectBackup } from '@/lib/backup/export';
import { MAX_BACKUP_BYTES } from '@/lib/backup/format';
import {
  applyBackup,
  type DestinationChange,
  type ImportOutcome,
  type ImportReport,
  permissionsNeeded,
} from '@/lib/backup/import';
import { parseBackup, type ReportLine } from '@/lib/backup/parse';
import type { PermissionSet } from '@/lib/diagnosis/permissions';
import { t, tn } from '@/lib/i18n';
import { useConfirm } from '../ConfirmDialog';
import { StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';

/** The part of `browser.permissions` this section uses; tests pass a stand-in. */
export interface BackupPermissionsApi {
  contains(permissions: PermissionSet): Promise<boolean>;
  request(permissions: PermissionSet): Promise<boolean>;
  remove(permissions: { origins: string[] }): Promise<boolean>;
}

/**
 * Hands the file to the browser's downloads through a `blob:` URL, which names only the
 * extension's origin and a random id: the key, when included, is in the file and nowhere else.
 */
export function downloadText(text: string, fileName: string, doc: Document = document): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = doc.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  doc.body.append(link);
  link.click();
  link.remove();
  // The download reads the blob after the click returns; give it time before letting go.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

async function missingPermissions(
  api: BackupPermissionsApi,
  wanted: Required<PermissionSet>,
): Promise<Required<PermissionSet>> {
  const granted = async (set: PermissionSet) => api.contains(set).catch(() => false);
  const origins: string[] = [];
  for (const origin of wanted.origins) if (!(await granted({ origins: [origin] }))) origins.push(origin);
  const permissions: string[] = [];
  for (const name of wanted.permissions)
    if (!(await granted({ permissions: [name] }))) permissions.push(name);
  return { origins, permissions };
}

/** Host names and "page diagnosis", rather than match patterns and API names. */
function accessText(missing: Required<PermissionSet>): string {
  const diagnosis = missing.permissions.length > 0 || missing.origins.includes('<all_urls>');
  const hosts = missing.origins
    .filter((origin) => origin !== '<all_urls>')
    .map((origin) => origin.replace(/^[a-z]+:\/\//, '').replace(/\/\*$/, ''));
  const contact = hosts.length > 0 ? t('backup.accessHosts', { hosts: hosts.join(', ') }) : '';
  if (!diagnosis) return contact;
  const observe = t('backup.accessDiagnosis');
  return contact === '' ? observe : t('backup.accessBoth', { hosts: contact, diagnosis: observe });
}

function summary(report: ImportOutcome): string {
  if (report.cancelled) return t('backup.cancelled');
  const imported = report.imported.length;
  const refused = report.refused.length;
  if (imported === 0 && refused === 0) return t('backup.noSettings');
  return refused > 0 ? tn('backup.summaryRefused', imported, { refused }) : tn('backup.summary', imported);
}

function ReportList({ title, lines }: { title: string; lines: ReportLine[] }) {
  const id = useId();
  if (lines.length === 0) return null;
  return (
    <>
      <h3 id={id}>{title}</h3>
      <ul aria-labelledby={id}>
        {lines.map((line) => (
          <li key={line.name}>{t('backup.reportLine', { label: line.label, detail: line.detail })}</li>
        ))}
      </ul>
    </>
  );
}

/** The old and new values of each destination the file changes, as text. */
function DestinationList({ changes }: { changes: DestinationChange[] }) {
  const none = t('backup.confirmNone');
  return (
    <>
      <p>{t('backup.confirmIntro')}</p>
      <ul>
        {changes.map((change) => (
          <li key={change.name}>
            {t('backup.confirmChange', {
              label: change.label,
              before: change.before === '' ? none : change.before,
              after: change.after,
            })}
          </li>
        ))}
      </ul>
      <p>{t('backup.confirmWarning')}</p>
    </>
  );
}

/** Export and import of the settings as a JSON file. */
export function BackupSection({
  permissions = browser.permissions as BackupPermissionsApi,
  download = downloadText,
}: {
  permissions?: BackupPermissionsApi;
  download?: (text: string, fileName: string) => void;
}) {
  const [includeKey, setIncludeKey] = useState(false);
  const [includePages, setIncludePages] = useState(false);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [missing, setMissing] = useState<Required<PermissionSet> | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { status, run, busy } = useRemoteAction();
  const access = useRemoteAction();
  const { confirm, dialog } = useConfirm();
  const ids = {
    heading: useId(),
    includeKey: useId(),
    warning: useId(),
    includePages: useId(),
    pagesHint: useId(),
    about: useId(),
  };

  const exportSettings = () =>
    run(
      t('backup.exporting'),
      async () => {
        const backup = await collectBackup({ includeKey, includePages });
        const fileName = backupFileName();
        download(backupText(backup), fileName);
        return { fileName, withKey: backup.settings.apiKey !== undefined };
      },
      ({ fileName, withKey }) => {
        if (withKey) return t('backup.exportedWithKey', { file: fileName });
        if (includeKey) return t('backup.exportedNoKeySaved', { file: fileName });
        return t('backup.exportedWithoutKey', { file: fileName });
      },
    );

  const importFile = (file: File) => {
    setReport(null);
    setMissing(null);
    access.setStatus({ state: 'idle' });
    return run(
      t('backup.importing', { file: file.name }),
      async () => {
        if (file.size > MAX_BACKUP_BYTES) {
          throw new ApiError('invalid-input', t('backup.tooLarge'));
        }
        const parsed = parseBackup(await file.text());
        if (!parsed.ok) throw new ApiError('invalid-input', parsed.message);
        const result = await applyBackup(parsed, {
          confirmDestinations: (changes) =>
            confirm({
              title: t('backup.confirmTitle'),
              message: <DestinationList changes={changes} />,
              confirmLabel: t('backup.confirmImport'),
            }),
          permissions,
        });
        if (result.cancelled) return result;
        setReport(result);
        const needed = await missingPermissions(
          permissions,
          permissionsNeeded(parsed.accepted, parsed.accounts),
        );
        if (needed.origins.length > 0 || needed.permissions.length > 0) setMissing(needed);
        return result;
      },
      summary,
    );
  };

  const grantAccess = () => {
    if (!missing) return;
    // Asked first thing in the click: browsers show the prompt only during a user gesture.
    const asked = permissions.request(missing).catch(() => false);
    void access.run(
      t('backup.asking'),
      async () => {
        if (!(await asked)) {
          throw new ApiError('invalid-input', t('backup.notGranted'));
        }
        setMissing(null);
      },
      () => t('backup.granted'),
    );
  };

  return (
    <section aria-labelledby={ids.heading}>
      <h2 id={ids.heading}>{t('backup.heading')}</h2>
      <p id={ids.about} class="hint">
        {t('backup.about')}
      </p>
      <div class="check">
        <input
          id={ids.includeKey}
          type="checkbox"
          checked={includeKey}
          aria-describedby={ids.warning}
          onChange={(event) => setIncludeKey(event.currentTarget.checked)}
        />
        <label for={ids.includeKey}>{t('backup.includeKey')}</label>
      </div>
      <p id={ids.warning} class={includeKey ? 'warning' : 'hint'}>
        {t(includeKey ? 'backup.keyWarning' : 'backup.keyHint')}
      </p>
      <div class="check">
        <input
          id={ids.includePages}
          type="checkbox"
          checked={includePages}
          aria-describedby={ids.pagesHint}
          onChange={(event) => setIncludePages(event.currentTarget.checked)}
        />
        <label for={ids.includePages}>{t('backup.includePages')}</label>
      </div>
      <p id={ids.pagesHint} class="hint">
        {t('backup.pagesHint')}
      </p>
      <div class="actions">
        <button type="button" disabled={busy} onClick={() => void exportSettings()}>
          {t('backup.export')}
        </button>
        <button type="button" disabled={busy} onClick={() => fileInput.current?.click()}>
          {t('backup.import')}
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          hidden
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            // Cleared so that choosing the same file again imports it again.
            event.currentTarget.value = '';
            if (file) void importFile(file);
          }}
        />
      </div>
      <StatusMessage status={status} label={t('backup.heading')} />
      {dialog}
      {report ? (
        <div class="backup-report">
          <ReportList title={t('backup.imported')} lines={report.imported} />
          <ReportList title={t('backup.refused')} lines={report.refused} />
          <ReportList title={t('backup.unchanged')} lines={report.notInFile} />
          {report.ignored.length > 0 ? (
            <p>{t('backup.ignored', { names: report.ignored.join(', ') })}</p>
          ) : null}
        </div>
      ) : null}
      {missing ? (
        <div class="warning">
          <p>{t('backup.needsAccess', { access: accessText(missing) })}</p>
          <button type="button" disabled={access.busy} onClick={grantAccess}>
            {t('backup.allowAccess')}
          </button>
          <StatusMessage status={access.status} label={t('backup.accessLabel')} />
        </div>
      ) : null}
    </section>
  );
}
