/**
 * The verdict at a glance: the domain, then a large word with its icon and colour (Blocked,
 * Allowed, Not blocked) and one line of reason; what it rests on is one click away (Details).
 */
import { type ComponentChildren, Fragment, type FunctionComponent } from 'preact';
import type { Verdict } from '@/lib/filtering/verdict';
import { t } from '@/lib/i18n';
import type { OptionsSection, VerdictHeadline } from '@/lib/popup/view';
import { DomainName } from '../DomainName';
import { AllowedIcon, BlockedIcon, NotBlockedIcon, UnknownIcon, WarningIcon } from '../icons/Icon';

export type HeroTone = Verdict['kind'] | 'unknown' | 'problem';

const ICONS: Record<HeroTone, FunctionComponent> = {
  blocked: BlockedIcon,
  allowed: AllowedIcon,
  'not-blocked': NotBlockedIcon,
  unknown: UnknownIcon,
  problem: WarningIcon,
};

const SECTION_LINKS: Partial<Record<OptionsSection, () => string>> = {
  whitelist: () => t('popup.details.open.whitelist'),
  blocklist: () => t('popup.details.open.blocklist'),
  tlds: () => t('popup.details.open.topLevelDomains'),
  'default-block': () => t('popup.details.open.defaultBlock'),
};

/** `text` with each occurrence of `domain` shown as a DomainName, so the sentence never wraps inside it. */
function WithDomain({ text, domain }: { text: string; domain: string | null }) {
  if (domain === null || !text.includes(domain)) return <>{text}</>;
  const pieces = text.split(domain);
  return (
    <>
      {pieces.map((piece, index) => (
        <Fragment key={index}>
          {piece}
          {index < pieces.length - 1 && <DomainName domain={domain} />}
        </Fragment>
      ))}
    </>
  );
}

export interface VerdictHeroProps {
  /** The tab's host: what the verdict is about. */
  host: string | null;
  tone: HeroTone;
  /** The word and the reason; null: `text` stands alone (checking, a failure, nothing to filter). */
  headline: VerdictHeadline | null;
  text: string;
  details?: readonly string[];
  /** A domain named in the reason (the list entry that decides): it never wraps inside. */
  reasonDomain?: string | null;
  /** The options page's section about the rule behind the verdict. */
  section?: OptionsSection | null;
  openOptions?(section?: OptionsSection): void;
  /** Under the verdict, inside the card: a line on how current it is, a button that fixes it. */
  children?: ComponentChildren;
}

export function VerdictHero({
  host,
  tone,
  headline,
  text,
  details = [],
  reasonDomain = null,
  section = null,
  openOptions,
  children,
}: VerdictHeroProps) {
  const Icon = ICONS[tone];
  const sectionLink = section === null ? undefined : SECTION_LINKS[section];
  return (
    <section class={`hero hero-${tone}`} aria-labelledby={host === null ? undefined : 'popup-domain'}>
      {host !== null && (
        <h2 id="popup-domain" class="hero-domain" title={host}>
          <DomainName domain={host} />
        </h2>
      )}
      <div role="status" aria-label={t('popup.verdictRegion')} class="verdict">
        <span class="verdict-icon">
          <Icon />
        </span>
        {headline === null ? (
          <p class="verdict-text">{text}</p>
        ) : (
          // The status text reads "Blocked: <reason>". The ": " is read, not shown; it sits inside
          // the word's box so the rendered text (innerText) has no break before it.
          <>
            <strong class="verdict-word">
              {headline.word}
              <span class="verdict-separator">{t('popup.headline', { word: '', reason: '' })}</span>
            </strong>
            <span class="verdict-reason">
              <WithDomain text={headline.reason} domain={reasonDomain} />
            </span>
          </>
        )}
      </div>
      {details.length > 0 && (
        <details class="verdict-details">
          <summary>{t('popup.details.summary')}</summary>
          {details.map((line) => (
            <p key={line}>{line}</p>
          ))}
          {sectionLink && openOptions && (
            <button type="button" class="link" onClick={() => openOptions(section ?? undefined)}>
              {sectionLink()}
            </button>
          )}
        </details>
      )}
      {children}
    </section>
  );
}
