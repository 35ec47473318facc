/**
 * An in-memory {@link OverviewApi} for stories and tests: figures per day that rise and fall like a
 * real app's (weekdays busier than weekends), or none at all, or a failure.
 */
import type { Overview, OverviewDay } from '../../../../../schemas/app-api';
import type { LogPeriod } from '../../../../../schemas/run-api';
import { ApiError } from '../../../../api/request';
import type { OverviewApi } from './overview-api';

export interface MemoryOverviewOptions {
  /** No runs at all (the empty state). */
  empty?: boolean;
  fails?: boolean;
  latencyMs?: number;
  /** The last day shown (default 2026-06-30). */
  today?: string;
}

export interface MemoryOverviewApi extends OverviewApi {
  calls: { period: LogPeriod; tz: string }[];
}

const DAYS: Record<LogPeriod, number> = { today: 1, '7d': 7, '30d': 30, '90d': 90, '180d': 180, all: 240 };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A day's figures from its index: deterministic, so stories and screenshots do not change between runs. */
export function fixtureDay(date: string, i: number): OverviewDay {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  const busy = weekday === 0 || weekday === 6 ? 0.45 : 1;
  const wave = 1 + 0.35 * Math.sin(i / 3);
  const conversations = Math.round(18 * busy * wave + (i % 5));
  const messages = Math.round(conversations * (3.2 + (i % 3) * 0.4));
  const failed = (i * 7) % 11 === 0 ? 3 : i % 4 === 0 ? 1 : 0;
  return {
    date,
    runs: messages,
    conversations,
    messages,
    active_users: Math.max(1, Math.round(conversations * 0.7)),
    tokens: messages * (820 + ((i * 37) % 300)),
    avg_latency_ms: 900 + ((i * 53) % 400),
    p95_latency_ms: 2100 + ((i * 97) % 900),
    error_rate: messages ? failed / messages : 0,
  };
}

const empty = (date: string): OverviewDay => ({ date, runs: 0, conversations: 0, messages: 0, active_users: 0, tokens: 0, avg_latency_ms: 0, p95_latency_ms: 0, error_rate: 0 });

/** The figures over a period as the server would total them (averages weighted by runs). */
export function fixtureOverview(period: LogPeriod, opts: Pick<MemoryOverviewOptions, 'empty' | 'today'> = {}): Overview {
  const last = Date.parse(`${opts.today ?? '2026-06-30'}T00:00:00Z`);
  const n = DAYS[period];
  const days = Array.from({ length: n }, (_, k) => {
    const date = new Date(last - (n - 1 - k) * 86_400_000).toISOString().slice(0, 10);
    return opts.empty ? empty(date) : fixtureDay(date, k);
  });
  const sum = (f: (d: OverviewDay) => number) => days.reduce((a, d) => a + f(d), 0);
  const runs = sum((d) => d.runs);
  return {
    period,
    days,
    totals: {
      runs,
      conversations: sum((d) => d.conversations),
      messages: sum((d) => d.messages),
      active_users: Math.round(sum((d) => d.active_users) * 0.6),
      tokens: sum((d) => d.tokens),
      avg_latency_ms: runs ? sum((d) => d.avg_latency_ms * d.runs) / runs : 0,
      p95_latency_ms: days.reduce((m, d) => Math.max(m, d.p95_latency_ms), 0),
      error_rate: runs ? sum((d) => d.error_rate * d.runs) / runs : 0,
    },
  };
}

export function createMemoryOverviewApi(opts: MemoryOverviewOptions = {}): MemoryOverviewApi {
  const calls: MemoryOverviewApi['calls'] = [];
  return {
    calls,
    async get(_appId, _workspaceId, period, tz) {
      calls.push({ period, tz });
      await wait(opts.latencyMs ?? 0);
      if (opts.fails) throw new ApiError({ status: 500, code: 'SYSTEM-1500', msg: 'The server failed' });
      return fixtureOverview(period, opts);
    },
  };
}
