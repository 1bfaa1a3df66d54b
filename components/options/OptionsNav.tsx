import { t } from '@/lib/i18n';
import { hashFor, navigation, type RouteContext, type SectionRoute } from '@/lib/options/routes';

interface OptionsNavProps {
  id: string;
  context: RouteContext;
  current: SectionRoute;
  /** Sections with changes not saved yet: their entries say so. */
  unsaved: ReadonlySet<string>;
  onChoose: (section: SectionRoute) => void;
}

/** The side navigation: a link per section, named as the section's heading, grouped under headings. */
export function OptionsNav({ id, context, current, unsaved, onChoose }: OptionsNavProps) {
  const groups = navigation(context);
  return (
    <nav id={id} class="options-nav" aria-label={t('nav.label')}>
      {groups.map((group) => (
        <div key={group.id} class="nav-group">
          {group.title && <h2 class="nav-heading">{t(group.title)}</h2>}
          <ul>
            {group.sections.map((section) => {
              const shown = section.view === current.view;
              return (
                <li key={section.id}>
                  <a
                    href={hashFor(section)}
                    class={shown ? 'nav-link nav-link-shown' : 'nav-link'}
                    aria-current={section.id === current.id ? 'page' : undefined}
                    // Said as a description, so the entry's name stays the section's name.
                    aria-describedby={unsaved.has(section.id) ? `${id}-unsaved` : undefined}
                    onClick={(event) => {
                      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
                      event.preventDefault();
                      onChoose(section);
                    }}
                  >
                    {t(section.title)}
                    {unsaved.has(section.id) && (
                      <span class="nav-unsaved" aria-hidden="true">
                        •
                      </span>
                    )}
                  </a>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
      <span id={`${id}-unsaved`} hidden>
        {t('nav.unsaved')}
      </span>
      {!context.hasKey && <p class="hint nav-note">{t('nav.needsKey')}</p>}
    </nav>
  );
}
