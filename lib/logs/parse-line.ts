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
 * It returns null for anything else and never throws: a dump is untrusted input of any size.
 */

export type LogAction = 'allowed' | 'blocked';

export interface ParsedLogLine {
  /** `yyyy-mm-dd` */
  date: string;
  /** `HH:MM:SS` */
  time: string;
  /** The integer after the time (the service does not say what it counts). */
  sequence: number;
  action: LogAction;
  clientIp: string;
  /** The integer after the client IP (the service does not say what it counts). */
  clientNumber: number;
  /** Lower case as sent, without the trailing dot; `.` for the DNS root. */
  domain: string;
  /** Address of the resolver that answered; may be empty. */
  resolver: string;
}

// One regular expression over the whole line is the fastest option in V8 (irregexp compiles it to
// machine code) and keeps the grammar in one readable place. `(\S+?):\s*(\d+):` splits
// `2001:db8::1: 7:` and `192.0.2.1:7:` alike: the lazy match backtracks to the last colon that is
// followed by digits and a colon.
const LINE =
  /^\s*(\d{4}-\d{2}-\d{2})\s+(\d{2}):(\d{2}):(\d{2})\s+(\d{1,15})\s+pass-through:\s+(allowed|blocked|Allowed|Blocked|ALLOWED|BLOCKED):\s+(\S+?):\s*(\d{1,15}):\s+(\S+?)\s+\(([^()]*)\)\s*$/;

// A dump is one day: the date check runs once, not once per line.
let lastValidDate = '';

/**
 * The raw fields of a line, or null. Groups: 1 date, 2-4 hours/minutes/seconds, 5 sequence,
 * 6 action, 7 client IP, 8 client number, 9 domain (as sent), 10 resolver. For hot loops that
 * would rather not build an object per line; `parseLogLine` is the friendly form.
 */
export function matchLogLine(line: string): RegExpExecArray | null {
  // Real lines are ~100 characters; a megabyte "line" is garbage and not worth a regex run.
  if (line.length > 4096) return null;
  const m = LINE.exec(line);
  if (m === null) return null;
  const date = m[1] as string;
  if (+(m[2] as string) > 23 || +(m[3] as string) > 59 || +(m[4] as string) > 60) return null;
  if (date !== lastValidDate) {
    if (!isValidDate(date)) return null;
    lastValidDate = date;
  }
  return m;
}
/** The line split into its fields, or null when it does not follow the format. */
export function parseLogLine(line: string): ParsedLogLine | null {
  const m = matchLogLine(line);
  if (m === null) return null;
  const [, date, hh, mm, ss, sequence, action, clientIp, clientNumber, domain, resolver] =
    m as unknown as string[];
  return {
    date: date as string,
    time: `${hh}:${mm}:${ss}`,
    sequence: Number(sequence),
    action: (action as string).toLowerCase() as LogAction,
    clientIp: clientIp as string,
    clientNumber: Number(clientNumber),
    domain: stripTrailingDot(domain as string),
    resolver: resolver as string,
  };
}

/** The line as the service writes it; `parseLogLine(formatLogLine(x))` gives back `x`. */
export function formatLogLine(line: ParsedLogLine): string {
  const domain = line.domain === '.' ? '.' : `${line.domain}.`;
  return `${line.date} ${line.time} ${line.sequence} pass-through: ${line.action}: ${line.clientIp}: ${line.clientNumber}: ${domain} (${line.resolver})`;
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
