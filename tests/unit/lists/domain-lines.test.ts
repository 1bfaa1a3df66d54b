import { describe, expect, it } from 'vitest';
import { parseDomainLines, splitDomainLines } from '@/lib/lists/domain-lines';

describe('splitDomainLines', () => {
  it.each([
    ['one per line', 'a.com\nb.com\r\nc.com', ['a.com', 'b.com', 'c.com']],
    ['commas and semicolons', 'a.com, b.com;c.com', ['a.com', 'b.com', 'c.com']],
    ['blank lines and spaces', '\n  a.com  \n\n', ['a.com']],
    ['comments', '# my list\na.com # trailing note\nb.com', ['a.com', 'b.com']],
    [
      'hosts-file lines',
      '0.0.0.0 ads.example.com\n127.0.0.1\ttrack.example.net',
      ['ads.example.com', 'track.example.net'],
    ],
    ['a URL with a fragment is not a comment', 'https://a.com/page#top', ['https://a.com/page#top']],
    ['nothing', '  \n ', []],
  ])('%s', (_name, text, expected) => {
    expect(splitDomainLines(text)).toEqual(expected);
  });
});

describe('parseDomainLines', () => {
  it('normalises each line, drops repeats and keeps the order', () => {
    const parsed = parseDomainLines('Example.COM\nhttps://www.test.org/path?q=1\nexample.com.\nbücher.de');
    expect(parsed.domains).toEqual(['example.com', 'www.test.org', 'xn--bcher-kva.de']);
    expect(parsed.duplicates).toBe(1);
    expect(parsed.refused).toEqual([]);
  });

  it('reports each line that is not a domain with the reason, as the user wrote it', () => {
    const parsed = parseDomainLines('good.com\nnot a domain\n*.wild.com\n10.0.0.1\nlocalhost');
    expect(parsed.domains).toEqual(['good.com']);
    expect(parsed.refused.map((item) => item.line)).toEqual([
      'not a domain',
      '*.wild.com',
      '10.0.0.1',
      'localhost',
    ]);
    for (const item of parsed.refused) expect(item.message).not.toBe('');
  });
});
