import { describe, expect, it } from 'vitest';
import { barChartConfig } from '@/components/logs/charts';

type TickCallback = (value: number | string) => string | number;
const look = (locale: string) => ({ locale, text: 'rgb(0, 0, 0)', grid: 'rgb(200, 200, 200)' });
const spec = {
  labels: ['00', '01'],
  series: [{ label: 'Queries', values: [1400, 12_345_678], color: 'rgb(1, 2, 3)' }],
};

/** Chart axes and tooltips write numbers the way the page's language does. */
describe('chart numbers', () => {
  it('writes the value axis in German as 1.400, in English as 1,400', () => {
    const german = barChartConfig(spec, look('de'));
    const english = barChartConfig(spec, look('en'));
    const tick = (config: typeof german) => config.options?.scales?.y?.ticks as { callback: TickCallback };
    expect(tick(german).callback(1400)).toBe('1.400');
    expect(tick(german).callback(12_345_678)).toBe('12.345.678');
    expect(tick(english).callback(1400)).toBe('1,400');
    // Tooltips and Chart.js's own formatting follow the same language.
    expect(german.options?.locale).toBe('de');
  });

  it('formats the value axis of horizontal bars and leaves the names on the other axis alone', () => {
    const config = barChartConfig({ ...spec, horizontal: true }, look('de'));
    const x = config.options?.scales?.x?.ticks as { callback?: TickCallback };
    const y = config.options?.scales?.y?.ticks as { callback?: TickCallback };
    expect(x.callback?.(2500)).toBe('2.500');
    expect(y.callback).toBeUndefined();
  });

  it('draws in the colours of the page (the design tokens, resolved for light or dark)', () => {
    const config = barChartConfig(spec, look('en'));
    expect(config.options?.scales?.y?.ticks?.color).toBe('rgb(0, 0, 0)');
    expect(config.options?.scales?.x?.grid?.color).toBe('rgb(200, 200, 200)');
    expect(config.data.datasets[0]?.backgroundColor).toBe('rgb(1, 2, 3)');
  });
});
