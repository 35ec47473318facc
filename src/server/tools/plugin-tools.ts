import { z } from 'zod';
import { NodeExecutionError, type ToolDefinition } from '../../plugin-sdk/executor';
import type { PluginToolDeclaration } from '../../../schemas/plugin-package';
import type { ServerContext } from '../context';
import type { LoadedPackage, PluginToolCode } from '../plugins/host';
import { pluginCredentialValues } from '../plugins/credentials';
import { createSandboxService, SANDBOX_ERRORS, type SandboxCaller } from '../sandbox';

/**
 * Tools of installed plugin packages (issue 24). A tool node or an agent names one by
 * `provider` = the plugin id and `name` = the tool's name. Its code (a script in the package's
 * server bundle, scripts/plugin-pack.ts) runs in the code sandbox like the code node's: QuickJS in a
 * worker, within the sandbox's time and memory limits and the scheduler's per-tenant caps; it has
 * no host objects, so no network and no files, and nothing starts a host process. The arguments
 * are checked against the tool's declared JSON Schema before it runs; it gets its own plugin's
 * credentials for the run's tenant and no other plugin's.
 */

export const PLUGIN_TOOL_ERRORS = {
  /** The arguments do not match the tool's declared schema (detail: the issues). */
  INPUT: 'PLUGIN-TOOL-INPUT',
  /** The tool's code threw, or returned something that is not JSON (detail: its message and logs). */
  FAILED: 'PLUGIN-TOOL-FAILED',
} as const;

export interface PluginTool {
  pkg: LoadedPackage;
  declaration: PluginToolDeclaration;
  code: PluginToolCode | undefined;
}

/** An active package's tool, or undefined when no installed plugin provides it. */
export function findPluginTool(ctx: ServerContext, provider: string, name: string): PluginTool | undefined {
  const pkg = ctx.plugins.packages().find((p) => p.id === provider && p.state === 'active');
  const declaration = pkg?.manifest.tools.find((t) => t.name === name);
  return pkg && declaration ? { pkg, declaration, code: pkg.tools.find((t) => t.name === name) } : undefined;
}

/** The definition a model is offered. */
export const pluginToolDefinition = (t: PluginTool): ToolDefinition => ({ name: t.declaration.name, description: t.declaration.description || t.declaration.name, parameters: t.declaration.parameters });

// One zod schema per declaration object (a new one comes with each load of a package).
const schemas = new WeakMap<PluginToolDeclaration, z.ZodType | Error>();
function argsSchema(d: PluginToolDeclaration): z.ZodType | Error {
  let s = schemas.get(d);
  if (!s) {
    try {
      s = z.fromJSONSchema(d.parameters as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (e) {
      s = e instanceof Error ? e : new Error(String(e));
    }
    schemas.set(d, s);
  }
  return s;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Runs a plugin's tool for a run of `caller.tenantId` and gives the tool outputs (`text`, `files`,
 * `json`). Errors are NodeExecutionErrors with codes: PLUGIN-TOOL-INPUT, PLUGIN-TOOL-FAILED, or the
 * sandbox's own (time, memory, queue).
 */
export async function runPluginTool(ctx: ServerContext, caller: { tenantId: string; userId?: string }, tool: PluginTool, args: Record<string, unknown>, signal: AbortSignal) {
  const label = `${tool.pkg.id}/${tool.declaration.name}`;
  if (!tool.code) throw new NodeExecutionError('TOOL-NOT-FOUND', `The plugin ${tool.pkg.id} lists the tool "${tool.declaration.name}" but carries no code for it (pack it again)`);
  const schema = argsSchema(tool.declaration);
  if (schema instanceof Error) throw new NodeExecutionError(PLUGIN_TOOL_ERRORS.INPUT, `${label}: its parameters schema cannot be read (${schema.message})`);
  const parsed = schema.safeParse(args);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message, rule: i.code }));
    throw new NodeExecutionError(PLUGIN_TOOL_ERRORS.INPUT, `${label}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`, { issues });
  }
  const credentials = tool.pkg.manifest.credentials_schema ? await pluginCredentialValues(ctx, caller.tenantId, tool.pkg.id) : null;
  let out: Record<string, unknown>;
  try {
    const sandboxCaller: SandboxCaller | undefined = caller.userId ? { tenantId: caller.tenantId, userId: caller.userId } : undefined;
    out = await createSandboxService(ctx.sandbox, sandboxCaller).run({ language: 'javascript', code: tool.code.script, inputs: { args: parsed.data, context: { credentials } } }, { signal });
  } catch (e) {
    // The tool's own failure names the tool; the sandbox's limits keep their codes.
    if (e instanceof NodeExecutionError && (e.code === SANDBOX_ERRORS.ERROR || e.code === SANDBOX_ERRORS.OUTPUT)) {
      // The line is one of the packed script's, not the author's source: it stays in the detail only.
      const why = e.message.replace(/ \(line \d+\)$/, '').replace(/^Error: /, '');
      throw new NodeExecutionError(PLUGIN_TOOL_ERRORS.FAILED, `${label}: ${why}`, e.detail);
    }
    throw e;
  }
  const result = out.result ?? null;
  const json = isPlainObject(result) ? [result] : Array.isArray(result) ? result.filter(isPlainObject) : [];
  return { text: typeof result === 'string' ? result : JSON.stringify(result), files: [], json };
}
