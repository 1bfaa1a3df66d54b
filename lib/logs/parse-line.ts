/**
 * One line of the raw log (`logs/getdump`, service-api.md section 2):
 *
 *   2024-05-01 14:05:09 1187 pass-through: blocked: 192.0.2.10: 3: ads.example.com. (203.0.113.53)
 *
 * date, time, an integer, `pass-through:`, `allowed:`/`blocked:`, client IP and colon, an integer
 * and colon, the queried domain (trailing dot) and the answering resolver in parentheses.
 *
 * The parser is tolerant where the spec is vague (spacing, whether the client IP and the integer
 * after it are separated by a space, the action's capitalisation, a missing trailing dot, IPv6
 * client addresses) and strict where a wrong guess would show wrong data (date and time ranges).
 * It refuses anything else and never throws: a dump is untrusted input of any size.
 */

export type LogAction = 'allowed' | 'blocked';

/**
 * The fields of a line, filled in place by `scanLogLine`. Text fields are offsets into `text`, so
 * a hot loop can look values up without cutting a string per field (see record-store.ts).
 */
export interface ScannedLine {
  /** The line itself, or its canonical rewrite when it was read by the tolerant grammar. */
  text: string;
  date: string;
  hours: number;
  minutes: number;
  seconds: number;
  sequence: number;
  blocked: boolean;
  clientNumber: number;
  ipStart: number;
  ipEnd: number;
  /** Without the trailing dot. */
  domainStart: number;
  domainEnd: number;
  resolverStart: number;
  resolverEnd: number;
}

export function createScannedLine(): ScannedLine {
  return {
    text: '',
    date: '',
    hours: 0,
    minutes: 0,
    seconds: 0,
    sequence: 0,
    blocked: false,
    clientNumber: 0,
    ipStart: 0,
    ipEnd: 0,
    domainStart: 0,
    domainEnd: 0,
    resolverStart: 0,
    resolverEnd: 0,
  };
}

/** Real lines are ~100 characters; a megabyte "line" is garbage and not worth scanning. */
const MAX_LINE_LENGTH = 4096;

// The tolerant grammar. `(\S+?):\s*(\d+):` splits `2001:db8::1: 7:` and `192.0.2.1:7:` alike: the
// lazy match backtracks to the colon after which the rest of the line matches.
const LINE =
  /^\s*(\d{4}-\d{2}-\d{2})\s+(\d{2}):(\d{2}):(\d{2})\s+(\d{1,15})\s+pass-through:\s+(allowed|blocked|Allowed|Blocked|ALLOWED|BLOCKED):\s+(\S+?):\s*(\d{1,15}):\s+(\S+?)\s+\(([^()]*)\)\s*$/;

// A dump is one day: the calendar check of the date runs once, not once per line.
let lastValidDate = '';

function validDateCached(date: string): boolean {
  if (date === lastValidDate) return true;
  if (!isValidDate(date)) return false;
  lastValidDate = date;
  return true;
}

const isDigit = (code: number) => code >= 48 && code <= 57;
/** Not whitespace as the regular expression's `\\s` means it (so both readings agree on every line). */
const isVisible = (code: number) =>
  code > 32 &&
  (code < 127 ||
    !(
      code === 0xa0 ||
      code === 0x1680 ||
      (code >= 0x2000 && code <= 0x200a) ||
      code === 0x2028 ||
      code === 0x2029 ||
      code === 0x202f ||
      code === 0x205f ||
      code === 0x3000 ||
      code === 0xfeff
    ));
const DATE_TIME_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];
const twoDigits = (line: string, at: number) =>
  (line.charCodeAt(at) - 48) * 10 + (line.charCodeAt(at + 1) - 48);

/**
 * The line as the service writes it (single spaces), read with indexOf and character codes: about
 * twice as fast as the regular expression, which stays the fallback for every variation.
 * Accepts only lines the regular expression accepts, with the same fields.
 */
function scanCanonical(line: string, out: ScannedLine): boolean {
  const n = line.length;
  if (n < 50) return false;
  // yyyy-mm-dd HH:MM:SS␠
  for (const at of DATE_TIME_DIGITS) if (!isDigit(line.charCodeAt(at))) return false;
  if (line.charCodeAt(4) !== 45 || line.charCodeAt(7) !== 45 || line.charCodeAt(10) !== 32) return false;
  if (line.charCodeAt(13) !== 58 || line.charCodeAt(16) !== 58 || line.charCodeAt(19) !== 32) return false;
  // sequence␠
  let at = 20;
  let sequence = 0;
  while (at < n && isDigit(line.charCodeAt(at))) sequence = sequence * 10 + (line.charCodeAt(at++) - 48);
  if (at === 20 || at - 20 > 15 || !line.startsWith(' pass-through: ', at)) return false;
  at += 15;
  let blocked: boolean;
  if (line.startsWith('allowed: ', at)) blocked = false;
  else if (line.startsWith('blocked: ', at)) blocked = true;
  else return false;
  at += 9;
  // client IP, up to the first ": " (an IPv6 address has colons but no ": ").
  const ipEnd = line.indexOf(': ', at);
  if (ipEnd <= at) return false;
  for (let i = at; i < ipEnd; i++) if (!isVisible(line.charCodeAt(i))) return false;
  // client number:␠
  let numberAt = ipEnd + 2;
  const numberStart = numberAt;
  let clientNumber = 0;
  while (numberAt < n && isDigit(line.charCodeAt(numberAt)))
    clientNumber = clientNumber * 10 + (line.charCodeAt(numberAt++) - 48);
  if (numberAt === numberStart || numberAt - numberStart > 15) return false;
  if (line.charCodeAt(numberAt) !== 58 || line.charCodeAt(numberAt + 1) !== 32) return false;
  // domain␠(resolver)
  const domainStart = numberAt + 2;
  const domainEnd = line.indexOf(' ', domainStart);
  if (domainEnd <= domainStart || line.charCodeAt(domainEnd + 1) !== 40 || line.charCodeAt(n - 1) !== 41)
    return false;
  for (let i = domainStart; i < domainEnd; i++) if (!isVisible(line.charCodeAt(i))) return false;
  const resolverStart = domainEnd + 2;
  if (resolverStart > n - 1) return false;
  const parenthesis = line.indexOf('(', resolverStart);
  if ((parenthesis >= 0 && parenthesis < n - 1) || line.indexOf(')', resolverStart) !== n - 1) return false;

  const hours = twoDigits(line, 11);
  const minutes = twoDigits(line, 14);
  const seconds = twoDigits(line, 17);
  if (hours > 23 || minutes > 59 || seconds > 60) return false;
  const date = line.startsWith(lastValidDate) && lastValidDate !== '' ? lastValidDate : line.slice(0, 10);
  if (!validDateCached(date)) return false;

  // The domain ends before the trailing dot, unless it is the root ".".
  const domainLast =
    line.charCodeAt(domainEnd - 1) === 46 && domainEnd - domainStart > 1 ? domainEnd - 1 : domainEnd;
  out.text = line;
  out.date = date;
  out.hours = hours;
  out.minutes = minutes;
  out.seconds = seconds;
  out.sequence = sequence;
  out.blocked = blocked;
  out.clientNumber = clientNumber;
  out.ipStart = at;
  out.ipEnd = ipEnd;
  out.domainStart = domainStart;
  out.domainEnd = domainLast;
  out.resolverStart = resolverStart;
  out.resolverEnd = n - 1;
  return true;
}

/** Any spacing and capitalisation the grammar allows: rewritten to the canonical form and read again. */
function scanTolerant(line: string, out: ScannedLine): boolean {
  const m = LINE.exec(line);
  if (m === null) return false;
  const [, date, hh, mm, ss, sequence, action, clientIp, clientNumber, domain, resolver] =
    m as unknown as string[];
  const bare = stripTrailingDot(domain as string);
  const canonical =
    `${date} ${hh}:${mm}:${ss} ${Number(sequence)} pass-through: ${(action as string).toLowerCase()}: ` +
    `${clientIp}: ${Number(clientNumber)}: ${bare === '.' ? '.' : `${bare}.`} (${resolver})`;
  return scanCanonical(canonical, out);
}

/** Fills `out` and returns true when `line` follows the format; returns false (and leaves `out` in any state) otherwise. */
export function scanLogLine(line: string, out: ScannedLine): boolean {
  if (line.length > MAX_LINE_LENGTH) return false;
  return scanCanonical(line, out) || scanTolerant(line, out);
}

/** `example.com.` and `example.com` name the same domain; the root stays `.`. */
export function stripTrailingDot(domain: string): string {
  return domain.length > 1 && domain.charCodeAt(domain.length - 1) === 46 ? domain.slice(0, -1) : domain;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isValidDate(date: string): boolean {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const day = Number(date.slice(8, 10));
  if (month < 1 || month > 12 || day < 1) return false;
  if (month === 2 && day === 29) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (DAYS_IN_MONTH[month - 1] ?? 0);
}
