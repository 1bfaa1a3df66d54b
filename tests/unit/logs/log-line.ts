/** The fields of one raw log line, read through lib/logs/parse-line.ts's `scanLogLine`, for tests. */
import { createScannedLine, type LogAction, scanLogLine } from '@/lib/logs/parse-line';

export interface ParsedLogLine {
  /** `yyyy-mm-dd` */
  date: string;
  /** `HH:MM:SS` */
  time: string;
  sequence: number;
  action: LogAction;
  clientIp: string;
  clientNumber: number;
  /** Without the trailing dot; `.` for the DNS root. */
  domain: string;
  resolver: string;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The line split into its fields, or null when `scanLogLine` refuses it. */
export function parseLogLine(line: string): ParsedLogLine | null {
  const s = createScannedLine();
  if (!scanLogLine(line, s)) return null;
  return {
    date: s.date,
    time: `${pad2(s.hours)}:${pad2(s.minutes)}:${pad2(s.seconds)}`,
    sequence: s.sequence,
    action: s.blocked ? 'blocked' : 'allowed',
    clientIp: s.text.slice(s.ipStart, s.ipEnd),
    clientNumber: s.clientNumber,
    domain: s.text.slice(s.domainStart, s.domainEnd),
    resolver: s.text.slice(s.resolverStart, s.resolverEnd),
  };
}

/** The line as the service writes it (service-api.md section 2). */
export function formatLogLine(line: ParsedLogLine): string {
  const domain = line.domain === '.' ? '.' : `${line.domain}.`;
  return `${line.date} ${line.time} ${line.sequence} pass-through: ${line.action}: ${line.clientIp}: ${line.clientNumber}: ${domain} (${line.resolver})`;
}
