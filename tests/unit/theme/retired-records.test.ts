import { afterEach, expect, it } from 'vitest';
import { forgetRetiredRecords } from '@/lib/theme/retired-records';

afterEach(() => localStorage.clear());

it('removes what earlier versions kept in localStorage, and keeps the theme', () => {
  localStorage.setItem('earlyReadKeys', '["apiKey"]');
  localStorage.setItem('vouchedValues', '{}');
  localStorage.setItem('messageTexts', '{}');
  localStorage.setItem('theme', 'dark');
  forgetRetiredRecords(localStorage);
  expect(Object.keys(localStorage)).toEqual(['theme']);
});
