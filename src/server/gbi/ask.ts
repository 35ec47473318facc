import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { ChatMessage } from '../../../schemas/model';
import type { GbiChart, GbiDialect, GbiMessage, GbiResult, GbiTable } from '../../../schemas/gbi';
import { ErrorCode } from '../../../schemas/errors';
import type { ServerContext } from '../context';
import { requireMembership } from '../context';
import { gbiMessages, gbiSessions } from '../db/schema';
import { AppError, badRequest } from '../errors';
import { connectionOf } from '../services/databases';
import { complete, resolveModel, type ModelChoice } from '../services/prompt-debug';
import type { Scope } from '../services/workspace-resources';
import { pickChart } from './chart';
import { queryDuckDb, sourceFile } from './duckdb-store';
import { ENGINES } from './engines';
import { DEFAULT_SESSION_NAME, sessionRow, toMessage } from './sessions';
import { sourceRow, tablesOf } from './sources';
import { checkSql, SqlRefusedError } from './sql-guard';

/**
 * Asking (issue 30): the tenant's default LLM writes one SELECT from the described schema and the
 * session's earlier questions; the guard checks it; it runs read-only with the source's query limit
 * and the timeout; a database error goes back to the model once for a corrected query, then to the
 * user plainly. The result gets a chart chosen from its shape and a short written answer.
 * Credentials never reach the model or the answer.
 */

type SourceRow = Awaited<ReturnType<typeof sourceRow>>;
type Runner = (sql: string) => Promise<GbiResult>;

/** Earlier questions of the session given to the model for follow-ups. */
const HISTORY = 6;
/** Rows of the result the model sees to write its answer. */
const ANSWER_ROWS = 20;

const DIALECT_NAME: Record<GbiDialect, string> = { postgresql: 'PostgreSQL', mysql: 'MySQL', duckdb: 'DuckDB', sqlserver: 'SQL Server (T-SQL)', oracle: 'Oracle', clickhouse: 'ClickHouse', dm: 'Dameng (DM8, Oracle-compatible)' };

/** The schema in the words the model needs: names, types, business names, descriptions, samples. */
export function describeSchema(tables: GbiTable[]): string {
  return tables
    .map((t) => {
      const head = `TABLE ${t.name}${t.business_name ? ` -- ${t.business_name}` : ''}${t.description ? `: ${t.description}` : ''}${t.row_count !== null ? ` (${t.row_count} rows)` : ''}`;
      const cols = t.columns.map((c) => {
        const words = [c.business_name, c.description].filter(Boolean).join(': ');
        const samples = c.sample_values.length ? ` e.g. ${c.sample_values.map((v) => JSON.stringify(v)).join(', ')}` : '';
        return `  ${c.name} ${c.data_type}${words ? ` -- ${words}` : ''}${samples}`;
      });
      return [head, ...cols].join('\n');
    })
    .join('\n\n');
}

function systemPrompt(source: SourceRow, tables: GbiTable[]): string {
  return [
    `You write SQL for a ${DIALECT_NAME[source.dialect]} database to answer the user's question about their data.`,
    'Answer with exactly one read-only SELECT statement in a ```sql code block, and nothing else.',
    'Use only the tables and columns below; give computed columns short readable aliases.',
    `At most ${source.queryLimit} rows are shown: aggregate or order so the first rows answer the question.`,
    '',
    describeSchema(tables),
  ].join('\n');
}

/** The SQL in the model's reply: the first ```sql block, else the whole reply. */
export function sqlOf(reply: string): string {
  const block = /```(?:sql)?\s*([\s\S]*?)```/i.exec(reply);
  return (block ? block[1] : reply).trim();
}

/** Runs checked SQL on the source read-only with the timeout: at most `limit` rows (the source's query limit unless given). */
export async function runnerOf(ctx: ServerContext, s: Scope, source: SourceRow, limit = source.queryLimit): Promise<Runner> {
  const timeoutMs = ctx.settings.gbiQueryTimeoutMs;
  if (source.kind === 'spreadsheet') {
    const file = sourceFile(ctx.settings.dataDir, source.tenantId, source.id);
    return (sql) => queryDuckDb(file, sql, limit, timeoutMs);
  }
  const { database, settings } = await connectionOf(ctx, s, source.databaseId!);
  const engine = ENGINES[database.type];
  return (sql) => engine.query(settings, ctx.outbound, sql, limit, timeoutMs);
}

interface Outcome {
  sql: string;
  status: GbiMessage['status'];
  result: GbiResult | null;
  error: GbiMessage['error'];
}

const plain = (e: unknown) => ((e as Error).message ?? String(e)).split('\n')[0].slice(0, 500);

/** One attempt: check, then run. A refusal ends the question; a database error is returned for a retry. */
async function attempt(sql: string, source: SourceRow, tableNames: string[], run: Runner): Promise<Outcome & { dbError?: string }> {
  let checked: string;
  try {
    checked = checkSql(sql, source.dialect, tableNames);
  } catch (e) {
    if (!(e instanceof SqlRefusedError)) throw e;
    return { sql, status: 'refused', result: null, error: { code: ErrorCode.GBI_SQL_REFUSED, message: e.message } };
  }
  try {
    return { sql: checked, status: 'ok', result: await run(checked), error: null };
  } catch (e) {
    // The outbound policy's refusal and other catalogue errors are the caller's answer, not the model's to fix.
    if (e instanceof AppError) throw e;
    return { sql: checked, status: 'failed', result: null, error: { code: ErrorCode.GBI_QUERY_FAILED, message: plain(e) }, dbError: plain(e) };
  }
}

async function writtenAnswer(ctx: ServerContext, s: Scope, model: ModelChoice, question: string, result: GbiResult): Promise<string> {
  const shown = { columns: result.columns.map((c) => c.name), rows: result.rows.slice(0, ANSWER_ROWS), total_rows: result.rows.length, truncated: result.truncated };
  const messages: ChatMessage[] = [
    { role: 'system', content: 'Answer the question in one or two short sentences from the query result given, in the language of the question. Do not mention SQL.' },
    { role: 'user', content: `Question: ${question}\nResult (JSON): ${JSON.stringify(shown)}` },
  ];
  try {
    return (await complete(ctx, s, model, messages)).trim();
  } catch {
    // The table and chart still answer; the sentence is a courtesy.
    return '';
  }
}

export async function ask(ctx: ServerContext, s: Scope, sessionId: string, body: { question: string; source_id?: string }): Promise<GbiMessage> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const session = await sessionRow(ctx, s, sessionId);
  const sourceId = body.source_id ?? session.sourceId;
  if (!sourceId) throw badRequest('Choose a data source to ask', [{ path: 'body/source_id', message: 'This form field is required!' }]);
  const source = await sourceRow(ctx, s, sourceId);
  const tables = await tablesOf(ctx, source.id);
  const model = await resolveModel(ctx, s, undefined);
  const run = await runnerOf(ctx, s, source);

  const earlier = (await ctx.db.select().from(gbiMessages).where(eq(gbiMessages.sessionId, session.id)).orderBy(asc(gbiMessages.createdAt)))
    .filter((m) => m.sourceId === source.id && m.sql)
    .slice(-HISTORY);
  const messages: ChatMessage[] = [{ role: 'system', content: systemPrompt(source, tables) }];
  for (const m of earlier) messages.push({ role: 'user', content: m.question }, { role: 'assistant', content: `\`\`\`sql\n${m.sql}\n\`\`\`` });
  messages.push({ role: 'user', content: body.question });

  const tableNames = tables.map((t) => t.name);
  const first = await complete(ctx, s, model, messages);
  let outcome = await attempt(sqlOf(first), source, tableNames, run);
  if (outcome.dbError) {
    // Once back to the model with the database's own words, then the user hears it plainly.
    const retry = [...messages, { role: 'assistant' as const, content: first }, { role: 'user' as const, content: `The database answered with an error: ${outcome.dbError}\nWrite a corrected query.` }];
    outcome = await attempt(sqlOf(await complete(ctx, s, model, retry)), source, tableNames, run);
  }
  let chart: GbiChart | null = null;
  let answer = '';
  if (outcome.result) {
    chart = pickChart(outcome.result);
    answer = await writtenAnswer(ctx, s, model, body.question, outcome.result);
  } else if (outcome.error) {
    answer = outcome.error.message;
  }
  const [row] = await ctx.db
    .insert(gbiMessages)
    .values({ id: randomUUID(), sessionId: session.id, sourceId: source.id, question: body.question, sql: outcome.sql, status: outcome.status, answer, result: outcome.result, chart, error: outcome.error })
    .returning();
  await ctx.db
    .update(gbiSessions)
    .set({ sourceId: source.id, updatedAt: new Date(), ...(session.name === DEFAULT_SESSION_NAME ? { name: body.question.slice(0, 64) } : {}) })
    .where(eq(gbiSessions.id, session.id));
  return toMessage(row);
}
