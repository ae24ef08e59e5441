import type { DestinationStream } from 'pino';
import { pino } from 'pino';
import pretty from 'pino-pretty';
import type { AgentLog } from '../agents/AgentLog';
import type { McpLog } from '../mcp/McpTuning';
import type { PushReport } from '../push/PushQueue';
import { pushReportLine } from '../push/pushReportLine';

/** Where the CLI's log lines go, and the host's own logger for its MCP servers. */
export interface CliLogging {
  /** The bridge's log destination (`tuning.logDestination`). */
  readonly destination: DestinationStream;
  /** MCP lifecycle lines, through the same destination. */
  readonly mcpLog: McpLog;
  /** ACP agents' lifecycle and their stderr (never sent to clients), through the same destination. */
  readonly agentLog: AgentLog;
  /** Push deliveries that failed (device and status only, never a payload), through the same destination. */
  readonly pushLog: (report: PushReport) => void;
}

/**
 * The CLI's log output on `stream` (stderr): one readable line per record when it is a
 * terminal (time, level, message, fields), JSON lines otherwise, for services and log
 * collectors. The first thing a new user reads after starting must not be a JSON record.
 *
 * @example
 * ```ts
 * const logging = cliLogging(process.stderr, 'info');
 * startHost({ ..., tuning: { logDestination: logging.destination }, mcpLog: logging.mcpLog });
 * ```
 */
export function cliLogging(
  stream: NodeJS.WritableStream & { readonly isTTY?: boolean },
  level: string,
): CliLogging {
  const destination: DestinationStream =
    stream.isTTY === true
      ? pretty({
          destination: stream,
          colorize: true,
          singleLine: true,
          translateTime: 'SYS:HH:MM:ss',
          ignore: 'pid,hostname',
          // Written at once, so lines and the console's prompt do not interleave mid-line.
          sync: true,
        })
      : (stream as DestinationStream);
  const logger = pino({ name: 'mcp', level }, destination);
  const pushLogger = pino({ name: 'push', level }, destination);
  const agentLogger = pino({ name: 'agent', level }, destination);
  return {
    destination,
    mcpLog: (lineLevel, message) => logger[lineLevel](message),
    agentLog: (lineLevel, message, agent) =>
      agent === undefined ? agentLogger[lineLevel](message) : agentLogger[lineLevel]({ agent }, message),
    pushLog: (report) => {
      const line = pushReportLine(report);
      if (line !== undefined) pushLogger.warn(line);
    },
  };
}
