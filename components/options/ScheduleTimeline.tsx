import { useId } from 'preact/hooks';
import { t } from '@/lib/i18n';
import { dayName, dayShortName, formatWallTime, type TimelineBlock } from '@/lib/schedules/options';
import { WEEKDAYS } from '@/lib/schedules/schema';

const DAY_MINUTES = 24 * 60;

/** The week of one profile: a row per day, each schedule's time as a block on it. */
export function ScheduleTimeline({ label, blocks }: { label: string; blocks: readonly TimelineBlock[] }) {
  const captionId = useId();
  return (
    <figure class="schedule-timeline" aria-labelledby={captionId}>
      <figcaption id={captionId}>{label}</figcaption>
      <ul class="plain-list">
        {WEEKDAYS.map((day) => {
          const today = blocks.filter((block) => block.day === day);
          return (
            <li key={day} class="timeline-day">
              <span class="timeline-day-name" aria-hidden="true">
                {dayShortName(day)}
              </span>
              <span class="timeline-track">
                {today.map((block) => {
                  const text = t('schedules.timelineWindow', {
                    rule: block.rule.name,
                    day: dayName(day),
                    start: formatWallTime(block.from),
                    end: formatWallTime(block.to),
                  });
                  return (
                    <span
                      key={`${block.rule.id}-${block.from}`}
                      class="timeline-block"
                      title={text}
                      style={{
                        left: `${(block.from / DAY_MINUTES) * 100}%`,
                        width: `${((block.to - block.from) / DAY_MINUTES) * 100}%`,
                      }}
                    >
                      <span class="visually-hidden">{text}</span>
                    </span>
                  );
                })}
                {today.length === 0 && <span class="visually-hidden">{dayName(day)}: —</span>}
              </span>
            </li>
          );
        })}
      </ul>
      <div class="timeline-scale" aria-hidden="true">
        <span>00</span>
        <span>06</span>
        <span>12</span>
        <span>18</span>
        <span>24</span>
      </div>
    </figure>
  );
}
