import { describe, expect, it } from 'vitest';
import { computeBadge } from '@/lib/badge';
import { diagnosisManifestEntries } from '@/lib/diagnosis/manifest';
import { concernsDiagnosis } from '@/lib/diagnosis/permissions';

describe('badge precedence with failed hosts', () => {
  it.each([
    [{ registrationFailing: true, pendingChanges: 2, failedHosts: 3 }, '!', /registration is failing/],
    [{ registrationFailing: false, pendingChanges: 2, failedHosts: 3 }, '3', /3 hosts of this page failed/],
    [{ registrationFailing: false, pendingChanges: 0, failedHosts: 1 }, '1', /1 host of this page failed/],
    [{ registrationFailing: false, pendingChanges: 2, failedHosts: 0 }, '2', /2 changes are waiting/],
    [{ registrationFailing: false, pendingChanges: 2 }, '2', /2 changes are waiting/],
    [{ registrationFailing: false, pendingChanges: 0, failedHosts: 250 }, '99+', /250 hosts/],
    [{ registrationFailing: false, pendingChanges: 0, failedHosts: 0 }, '', /^DNS Filter Companion$/],
  ])('%j → "%s"', (state, text, title) => {
    const badge = computeBadge(state);
    expect(badge.text).toBe(text);
    expect(badge.title).toMatch(title);
  });

  it('failed hosts and pending changes look different', () => {
    const failed = computeBadge({ registrationFailing: false, pendingChanges: 0, failedHosts: 2 });
    const pending = computeBadge({ registrationFailing: false, pendingChanges: 2 });
    expect(failed.color).not.toBe(pending.color);
  });
});

describe('manifest entries of page diagnosis', () => {
  it('a normal build asks for nothing at install, only optionally', () => {
    const entries = diagnosisManifestEntries(false);
    expect(entries.permissions).toEqual([]);
    expect(entries.host_permissions).toEqual([]);
    expect(entries.optional_permissions).toEqual(['webRequest', 'webNavigation']);
    expect(entries.optional_host_permissions).toEqual(['<all_urls>']);
  });

  it('the test build has them at install, and none optional', () => {
    const entries = diagnosisManifestEntries(true);
    expect(entries.permissions).toEqual(['webRequest', 'webNavigation']);
    expect(entries.host_permissions).toEqual(['<all_urls>']);
    expect([...entries.optional_permissions, ...entries.optional_host_permissions]).toEqual([]);
  });

  it.each([
    [{ permissions: ['webRequest'] }, true],
    [{ origins: ['<all_urls>'] }, true],
    [{ permissions: ['notifications'], origins: ['https://my.example/*'] }, false],
    [{}, false],
  ])('permission change %j concerns diagnosis: %s', (change, expected) => {
    expect(concernsDiagnosis(change)).toBe(expected);
  });
});
