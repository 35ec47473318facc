import { z } from 'zod';
import { isTeamMemberKind } from '../../schemas/flow';
import { defineNodePlugin, isSelector, MaybeSelector, NODE_WIDGETS, Template, type FlowGraph, type FlowNode, type PluginIssue, type Port } from '../../src/plugin-sdk';
import { checkMemoryAndVision, checkModel, memoryShape, modelField, modelTexts, usagePort, visionShape } from '../shared/model';
import { checkRunSettings, runSettingsShape, runSettingsTexts, withErrorOutputs, withFailBranch } from '../shared/run-settings';
import { mergeTexts } from '../shared/texts';
import { dify } from './dify';
import { modelSummary } from '../shared/summary';

/** Widgets only this kind uses (rendered by its view.tsx). */
export const AGENT_WIDGETS = {
  /** Several tools of either kind, each switchable. */
  toolList: 'tool-list',
  /** Other agent nodes of the flow (hand-offs). */
  agentNodes: 'agent-nodes',
} as const;

/** A tool the agent may call: a workspace tool's function, or an MCP server's tool. */
export const AgentTool = z.object({
  type: z.enum(['tool', 'mcp']).default('tool'),
  /** Tool id, or MCP server id. */
  providerId: z.string().max(64).default(''),
  /** Function id, or MCP tool name. */
  name: z.string().max(200).default(''),
  enabled: z.boolean().default(true),
});
export type AgentTool = z.infer<typeof AgentTool>;

/** Knowledge search offered to the model: how many segments one search returns, and the least score kept (0: none). */
export const AGENT_KNOWLEDGE_DEFAULTS = { knowledgeTopK: 4, knowledgeMinScore: 0 } as const;

/** An agent saved before vision: vision off, on the user's files when turned on. */
export const AGENT_VISION_DEFAULTS = { visionEnabled: false, visionFiles: ['sys', 'files'], visionDetail: 'high' } as const;

/** The search settings show once a knowledge base is chosen. */
const withKnowledge = { field: 'knowledgeIds', notEmpty: true };

const configSchema = z.object({
  model: modelField(0),
  instructions: Template.default('').meta({ label: 'fields.instructions', placeholder: 'fields.instructionsPlaceholder', widget: NODE_WIDGETS.template, rows: 8, order: 1 }),
  /** What the agent answers; the user's message by default. */
  query: MaybeSelector.default(['sys', 'query']).meta({ label: 'fields.query', widget: NODE_WIDGETS.variable, order: 2 }),
  tools: z.array(AgentTool).max(50).default([]).meta({ label: 'fields.tools', widget: AGENT_WIDGETS.toolList, order: 3 }),
  /** Ids of the agent nodes this one may hand the conversation to. */
  handoffs: z.array(z.string().max(64)).max(50).default([]).meta({ label: 'fields.handoffs', help: 'fields.handoffsHelp', widget: AGENT_WIDGETS.agentNodes, order: 4 }),
  /** How other agents see this one when deciding to hand off. */
  handoffDescription: z.string().max(1000).default('').meta({ label: 'fields.handoffDescription', widget: 'textarea', rows: 2, order: 5 }),
  maxIterations: z.number().int().min(1).max(50).default(10).meta({ label: 'fields.maxIterations', help: 'fields.maxIterationsHelp', order: 6 }),
  /** Knowledge bases the agent may search (a `search_knowledge` function offered to the model). */
  knowledgeIds: z.array(z.string().max(64)).max(50).default([]).meta({ label: 'fields.knowledge', help: 'fields.knowledgeHelp', widget: NODE_WIDGETS.knowledgeBases, order: 7 }),
  knowledgeTopK: z.number().int().min(1).max(20).default(AGENT_KNOWLEDGE_DEFAULTS.knowledgeTopK).meta({ label: 'fields.knowledgeTopK', order: 8, visibleWhen: withKnowledge }),
  knowledgeMinScore: z.number().min(0).max(1).default(AGENT_KNOWLEDGE_DEFAULTS.knowledgeMinScore).meta({ label: 'fields.knowledgeMinScore', help: 'fields.knowledgeMinScoreHelp', order: 9, visibleWhen: withKnowledge }),
  // Agents live in conversations: they remember its turns unless told not to.
  ...memoryShape(50, true),
  // The images the user sends (`sys.files`) go to the model when on (the agent builder's image upload).
  ...visionShape(60, ['sys', 'files']),
  ...runSettingsShape({ timeout: 300, maxTimeout: 1800 }),
});
export type AgentConfig = z.infer<typeof configSchema>;

const OUTPUTS: Port[] = [
  { name: 'text', type: 'string', labelKey: 'outputs.text' },
  { name: 'handoff_to', type: 'string', labelKey: 'outputs.handoffTo' },
  usagePort(),
];

/** In an agent team, the entry agent's turn may end with a team member's answer: who answered. */
const TEAM_OUTPUTS: Port[] = [...OUTPUTS, { name: 'answered_by', type: 'string', labelKey: 'outputs.answeredBy' }];

function validate(node: FlowNode<AgentConfig>, graph: FlowGraph): PluginIssue[] {
  const c = node.config;
  const out = [...checkModel(c.model)];
  if (!c.instructions.trim()) out.push({ key: 'issues.instructionsEmpty', path: ['instructions'], severity: 'warning' });
  if (!isSelector(c.query)) out.push({ key: 'issues.querySelectorEmpty', path: ['query'] });
  c.tools.forEach((t, i) => {
    if (!t.providerId || !t.name) out.push({ key: 'issues.toolIncomplete', params: { index: i + 1 }, path: ['tools', i] });
  });
  const seen = new Set<string>();
  c.handoffs.forEach((id, i) => {
    const target = graph.node(id);
    const path = ['handoffs', i];
    if (id === node.id) out.push({ key: 'issues.handoffSelf', path });
    else if (!target || target.kind !== 'agent') out.push({ key: 'issues.handoffMissing', params: { id }, path });
    else if (seen.has(id)) out.push({ key: 'issues.handoffDuplicate', params: { id }, path, severity: 'warning' });
    seen.add(id);
  });
  // In a team, an agent others can hand off to needs a description they can choose by.
  const isTarget = graph.nodes.some((n) => n.kind === 'agent' && n.id !== node.id && Array.isArray(n.config.handoffs) && n.config.handoffs.includes(node.id));
  if (isTarget && !c.handoffDescription.trim()) out.push({ key: 'issues.handoffDescriptionEmpty', path: ['handoffDescription'], severity: 'warning' });
  // A team member (no edges, see isTeamMemberKind) runs only when an agent hands off to it.
  const standsApart = isTeamMemberKind(graph.mode, node) && !graph.incoming(node.id).length && !graph.outgoing(node.id).length;
  if (standsApart && !isTarget) out.push({ key: 'issues.teamMemberUnreached', severity: 'warning' });
  out.push(...checkMemoryAndVision(c, graph, true), ...checkRunSettings(node, OUTPUTS));
  return out;
}

/** An agent: a model with instructions and tools, reasoning in steps; in a team it can hand off to other agents. */
export const agentPlugin = defineNodePlugin({
  kind: 'agent',
  dify,
  // 2: knowledge bases (knowledgeIds, knowledgeTopK, knowledgeMinScore). 3: vision (off, the user's files).
  version: 3,
  migrations: [
    {
      from: 1,
      up: (config) => ({ knowledgeIds: [], ...AGENT_KNOWLEDGE_DEFAULTS, ...config }),
      sample: { model: { provider: 'p', name: 'm' }, instructions: 'Help.', query: ['sys', 'query'], tools: [], handoffs: [], handoffDescription: '', maxIterations: 10 },
    },
    {
      from: 2,
      up: (config) => ({ ...AGENT_VISION_DEFAULTS, ...config }),
      sample: { model: { provider: 'p', name: 'm' }, instructions: 'Help.', query: ['sys', 'query'], tools: [], handoffs: [], knowledgeIds: [], ...AGENT_KNOWLEDGE_DEFAULTS },
    },
  ],
  category: 'model',
  icon: { lucide: 'bot' },
  color: '#7c3aed',
  i18n: mergeTexts(modelTexts, runSettingsTexts, {
    zh: {
      title: '智能体',
      description: '由模型自主思考并调用工具完成任务，可把对话转交给其他智能体',
      fields: {
        instructions: '指令',
        instructionsPlaceholder: '描述这个智能体的角色、目标和做事方式',
        query: '用户输入',
        tools: '工具',
        handoffs: '可转交给',
        handoffsHelp: '这个智能体可以把对话交给哪些智能体',
        handoffDescription: '职责说明',
        maxIterations: '最大步数',
        maxIterationsHelp: '一次回答中最多思考和调用工具的轮数',
        knowledge: '知识库',
        knowledgeHelp: '智能体需要时会检索这些知识库',
        knowledgeTopK: '每次检索的分段数',
        knowledgeMinScore: '最低相关度',
        knowledgeMinScoreHelp: '0 到 1；为 0 时不过滤',
      },
      outputs: { text: '回复', handoffTo: '转交给', answeredBy: '回答的智能体' },
      issues: {
        querySelectorEmpty: '请选择用户输入变量',
        instructionsEmpty: '还没有写指令',
        toolIncomplete: '第 {{index}} 个工具未选完整',
        handoffSelf: '智能体不能转交给自己',
        handoffMissing: '转交目标 {{id}} 不是本流程中的智能体',
        handoffDuplicate: '转交目标 {{id}} 重复',
        handoffDescriptionEmpty: '其他智能体会转交给它，请写职责说明',
        teamMemberUnreached: '没有连线，也没有智能体转交给它：它不会运行',
      },
    },
    en: {
      title: 'Agent',
      description: 'A model that reasons in steps and calls tools; it can hand the conversation to other agents',
      fields: {
        instructions: 'Instructions',
        instructionsPlaceholder: 'Describe the agent’s role, goals and way of working',
        query: 'User input',
        tools: 'Tools',
        handoffs: 'Can hand off to',
        handoffsHelp: 'The agents this one may hand the conversation to',
        handoffDescription: 'What this agent does',
        maxIterations: 'Maximum steps',
        maxIterationsHelp: 'How many rounds of reasoning and tool calls one answer may take',
        knowledge: 'Knowledge bases',
        knowledgeHelp: 'The agent searches these knowledge bases when it needs to',
        knowledgeTopK: 'Segments per search',
        knowledgeMinScore: 'Minimum relevance',
        knowledgeMinScoreHelp: '0 to 1; 0 keeps every match',
      },
      outputs: { text: 'Reply', handoffTo: 'Handed off to', answeredBy: 'Answered by' },
      issues: {
        querySelectorEmpty: 'Choose the user input variable',
        instructionsEmpty: 'No instructions written yet',
        toolIncomplete: 'Tool {{index}} is not fully chosen',
        handoffSelf: 'An agent cannot hand off to itself',
        handoffMissing: 'The hand-off target {{id}} is not an agent of this flow',
        handoffDuplicate: 'The hand-off target {{id}} appears twice',
        handoffDescriptionEmpty: 'Other agents hand off to this one: describe what it does',
        teamMemberUnreached: 'Not connected, and no agent hands off to it: it never runs',
      },
    },
  }),
  configSchema,
  // A single agent is the heart of an agent app; a team is several. Dify also places its agent node
  // as a step of chatflows and workflows (issue 26), so it is one here too: memory in a chatflow,
  // none in a workflow (memoryMessages reads no history without a conversation).
  modes: ['agent', 'agent_team', 'chatflow', 'workflow'],
  outputs: (config, ctx) => withErrorOutputs(config, ctx.graph?.mode === 'agent_team' ? TEAM_OUTPUTS : OUTPUTS),
  sourceHandles: (config) => withFailBranch(config, [{ id: 'source' }]),
  // The model, and how many tools it may call.
  summary: (config) => [...modelSummary(config.model), ...(config.tools.length ? [{ labelKey: 'fields.tools', text: String(config.tools.filter((x) => x.enabled).length) }] : [])],
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default agentPlugin;
