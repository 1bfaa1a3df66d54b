/**
 * The review of an unbreak of this site (lib/diagnosis/unbreak-review.ts): "This page used
 * a.example and b.example; c.example was never needed.", the needed entries in a list, and one
 * click to keep them on the whitelist for good; the rest lapse. Nothing is kept without the click.
 * Pure: the panel (UnbreakPanel.tsx) sends the answer.
 */
import { useId } from 'preact/hooks';
import { type UnbreakReview as Review, reviewText } from '@/lib/diagnosis/unbreak-review';
import { t, tn } from '@/lib/i18n';
import { FLAT, STACK } from './UnbreakOffer';

export interface UnbreakReviewProps {
  review: Review;
  busy: boolean;
  /** `keep`: the needed entries go on the whitelist for good; either way the review is done. */
  onAnswer(keep: boolean): void;
}

export function UnbreakReview({ review, busy, onAnswer }: UnbreakReviewProps) {
  const heading = useId();
  const { site } = review.session;
  const anyNeeded = review.needed.length > 0;
  return (
    <section class="unbreak-review" aria-labelledby={heading} style={STACK}>
      <h2 id={heading} class="small" style={FLAT}>
        {t('unbreak.popup.reviewHeading', { site })}
      </h2>
      <p class="small" style={FLAT}>
        {reviewText(review)}
      </p>
      {anyNeeded && (
        <ul
          aria-label={t('unbreak.popup.neededList', { site })}
          style={{ ...FLAT, paddingInlineStart: 'var(--space-4, 16px)' }}
        >
          {review.needed.map((entry) => (
            <li key={entry.domain}>
              <strong class="domain">{entry.domain}</strong>{' '}
              <span class="muted small">
                {tn('unbreak.popup.loads', entry.loads)}
                {entry.before === 'blocklist' ? `, ${t('unbreak.popup.wasOnBlocklist')}` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      {(anyNeeded || review.phase === 'ended') && (
        <div class="outcome-buttons">
          {anyNeeded && (
            <button
              type="button"
              class="btn btn-primary btn-sm"
              disabled={busy}
              onClick={() => onAnswer(true)}
            >
              {t('unbreak.popup.keep')}
            </button>
          )}
          {/* While the allows run there is nothing to let lapse yet: the end comes by itself. */}
          {review.phase === 'ended' && (
            <button
              type="button"
              class="btn btn-secondary btn-sm"
              disabled={busy}
              onClick={() => onAnswer(false)}
            >
              {anyNeeded ? t('unbreak.popup.dismiss') : t('unbreak.popup.done')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
