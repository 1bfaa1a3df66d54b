/** A label with no place a line may break at: ASCII letters and digits only. */
const UNBREAKABLE_LABEL = /^[A-Za-z0-9]*$/;

/**
 * A domain name that wraps only after its dots, never inside a label (unless one label alone is
 * wider than its box): a break may come after each dot (`<wbr>`), and a label the browser could
 * break inside (at a hyphen, between ideographs) is kept whole in a span (`.domain > span`, no
 * wrapping, components/theme.css). A label of letters and digits alone has no such place, so it
 * stays plain text: the popup's first view shows up to three domains, and every element costs its
 * render. Shared by the popup and the options page's History.
 */
export function DomainName({ domain }: { domain: string }) {
  const labels = domain.split('.');
  const last = labels.length - 1;
  return (
    <bdi class="domain">
      {labels.flatMap((label, index) => {
        const text = index < last ? `${label}.` : label;
        const piece = UNBREAKABLE_LABEL.test(label) ? text : <span key={`label-${index}`}>{text}</span>;
        return index < last ? [piece, <wbr key={`break-${index}`} />] : [piece];
      })}
    </bdi>
  );
}
