import { randomUUID } from 'node:crypto';
import { and, desc, eq, ilike, ne, sql, type SQL } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { requireMembership, UUID_RE } from '../context';
import { prompts } from '../db/schema';
import { badRequest, exists, notFoundOrForeign } from '../errors';
import type { Prompt, PromptModel, PromptScene, PromptVariable, TemplateType } from '../../../schemas/prompt';
import { TemplateSyntaxError, templateVariables } from './prompt-templates';
import { contains, isUniqueViolation, lockNames, MANAGERS, nothingToChange, page, type Scope, type Tx } from './workspace-resources';

/**
 * Prompts of a workspace (spec 3, 5, 7.5, 9). Any member lists, reads and parses variables; owner
 * and admin create, change and delete. The content must parse as its template type; variables not
 * given are parsed from it. (Debug runs, optimization and question generation need the model
 * providers of another issue and are not here.)
 */

type Row = typeof prompts.$inferSelect;

function toPrompt(r: Row): Prompt {
  return {
    id: r.id,
    workspace_id: r.workspaceId,
    name: r.name,
    description: r.description,
    tags: r.tags,
    content: r.content,
    template_type: r.templateType,
    scene: r.scene,
    variables: r.variables,
    model: r.model ?? null,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

const inScope = (s: Scope) => and(eq(prompts.workspaceId, s.workspaceId), eq(prompts.tenantId, s.caller.tenantId));

async function rowOf(ctx: ServerContext, s: Scope, id: string): Promise<Row> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Prompt', id);
  const [row] = await ctx.db.select().from(prompts).where(and(eq(prompts.id, id), inScope(s)));
  if (!row) throw notFoundOrForeign('Prompt', id);
  return row;
}

async function assertNameFree(tx: Tx, s: Scope, name: string, exceptId?: string) {
  await lockNames(tx, 'prompt', s.workspaceId);
  const conds: SQL[] = [eq(prompts.workspaceId, s.workspaceId), sql`lower(${prompts.name}) = lower(${name})`];
  if (exceptId) conds.push(ne(prompts.id, exceptId));
  const [hit] = await tx.select({ id: prompts.id }).from(prompts).where(and(...conds)).limit(1);
  if (hit) throw exists(`A prompt named '${name}' already exists in this project space`);
}

const duplicate = (e: unknown) => {
  if (isUniqueViolation(e)) throw exists('A prompt with this name already exists in this project space');
  throw e;
};

/** The variable names of a template; an invalid template is VALIDATION-1000 with its position. */
export function parseTemplate(type: TemplateType, content: string): string[] {
  try {
    return templateVariables(type, content);
  } catch (e) {
    if (e instanceof TemplateSyntaxError) {
      throw badRequest(`Invalid ${type} template: ${e.message}`, [
        { path: 'body/content', message: e.reason, line: e.line, column: e.column, offset: e.offset },
      ]);
    }
    throw e;
  }
}

/** Parsed names as variables, keeping the description and default of names already known. */
function variablesFrom(names: string[], known: PromptVariable[] = []): PromptVariable[] {
  const byName = new Map(known.map((v) => [v.name, v]));
  return names.map((name) => byName.get(name) ?? { name, description: '', default: '' });
}

export async function listPrompts(
  ctx: ServerContext,
  s: Scope,
  q: { page: number; page_size: number; name?: string; tag?: string; scene?: PromptScene },
) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const conds: SQL[] = [inScope(s)!];
  if (q.name) conds.push(ilike(prompts.name, contains(q.name)));
  if (q.tag) conds.push(sql`${prompts.tags} @> ${JSON.stringify([q.tag])}::jsonb`);
  if (q.scene) conds.push(eq(prompts.scene, q.scene));
  const where = and(...conds);
  const [{ total }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(prompts).where(where);
  const rows = await ctx.db
    .select()
    .from(prompts)
    .where(where)
    .orderBy(desc(prompts.updatedAt), desc(prompts.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return page(rows.map(toPrompt), total, q);
}

export async function getPrompt(ctx: ServerContext, s: Scope, id: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  return toPrompt(await rowOf(ctx, s, id));
}

export interface PromptInput {
  name: string;
  description: string;
  tags: string[];
  content: string;
  template_type: TemplateType;
  scene: PromptScene;
  variables?: PromptVariable[];
  model?: PromptModel | null;
}

export async function createPrompt(ctx: ServerContext, s: Scope, input: PromptInput) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const names = parseTemplate(input.template_type, input.content);
  const id = randomUUID();
  await ctx.db
    .transaction(async (tx) => {
      await assertNameFree(tx, s, input.name);
      await tx.insert(prompts).values({
        id,
        tenantId: s.caller.tenantId,
        workspaceId: s.workspaceId,
        name: input.name,
        description: input.description,
        tags: input.tags,
        content: input.content,
        templateType: input.template_type,
        scene: input.scene,
        variables: input.variables ?? variablesFrom(names),
        model: input.model ?? null,
        createdBy: s.caller.userId,
      });
    })
    .catch(duplicate);
  return toPrompt(await rowOf(ctx, s, id));
}

/**
 * Fields left out stay. A new content or template type must parse; without variables in the body
 * they are parsed again (keeping descriptions and defaults of the names that remain).
 */
export async function updatePrompt(ctx: ServerContext, s: Scope, input: { id: string } & Partial<PromptInput>) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const row = await rowOf(ctx, s, input.id);
  const { id: _id, ...fields } = input;
  if (Object.values(fields).every((v) => v === undefined)) throw nothingToChange();
  let variables = input.variables;
  if (input.content !== undefined || input.template_type !== undefined) {
    const names = parseTemplate(input.template_type ?? row.templateType, input.content ?? row.content);
    variables ??= variablesFrom(names, row.variables);
  }
  await ctx.db
    .transaction(async (tx) => {
      if (input.name !== undefined) await assertNameFree(tx, s, input.name, row.id);
      await tx
        .update(prompts)
        .set({
          name: input.name,
          description: input.description,
          tags: input.tags,
          content: input.content,
          templateType: input.template_type,
          scene: input.scene,
          variables,
          model: input.model,
          updatedAt: new Date(),
        })
        .where(and(eq(prompts.id, row.id), inScope(s)));
    })
    .catch(duplicate);
  return toPrompt(await rowOf(ctx, s, row.id));
}

export async function deletePrompt(ctx: ServerContext, s: Scope, id: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const row = await rowOf(ctx, s, id);
  await ctx.db.delete(prompts).where(and(eq(prompts.id, row.id), inScope(s)));
}

/** Any member: the variable names of a content, in order of first appearance. */
export async function parseVariables(ctx: ServerContext, s: Scope, type: TemplateType, content: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  return { variables: parseTemplate(type, content) };
}

/** Any member of the workspace (the debug calls that touch no prompt row). */
export async function requireMember(ctx: ServerContext, s: Scope) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
}
