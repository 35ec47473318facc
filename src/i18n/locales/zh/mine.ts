/** The user's own page (/operation/my). */
const mine = {
  title: '我的空间',
  description: '你在各项目空间创建的内容、提交到商店的条目、审批和最近的运行。',
  tabs: {
    created: '我创建的 ({{count}})',
    submissions: '商店提交 ({{count}})',
    approvals: '审批 ({{count}})',
    runs: '最近运行 ({{count}})',
  },
  kinds: { app: '应用', dataset: '知识库', prompt: '提示词', tool: '工具', plugin: '插件' },
  fields: {
    name: '名称',
    kind: '类型',
    space: '项目空间',
    updatedAt: '更新时间',
    state: '审核状态',
    reason: '原因',
    comment: '最新意见',
    submittedAt: '提交时间',
    app: '应用',
    source: '来源',
    status: '状态',
    elapsed: '耗时',
    startedAt: '开始时间',
  },
  created: { label: '我创建的内容', empty: '你还没有在项目空间中创建内容' },
  approvals: { toApprove: '待我审批', toApproveEmpty: '没有等待你审批的事项', submitted: '我提交的审批', submittedEmpty: '你还没有提交过审批', open: '打开审批' },
  submissions: { label: '我的商店提交', empty: '你还没有提交到商店' },
  runs: { label: '我的最近运行', empty: '还没有运行记录' },
  states: { in_approval: '审批中', awaiting_release: '待发布', released: '已发布', rejected: '已驳回', offline: '已下架' },
  sources: { draft: '调试', 'single-node': '单节点调试', portal: '门户', api: 'API', tool: '工具调用', mcp: 'MCP', published: '已发布' },
  runStatus: { running: '运行中', succeeded: '成功', failed: '失败', stopped: '已停止' },
};

export default mine;
