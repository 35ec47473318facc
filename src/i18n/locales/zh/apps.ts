/** The `apps` namespace: the app list of a project space (src/app/workspace/apps) and the app editor's header and guard. */
const apps = {
  title: '应用',
  description: '在项目空间中构建智能体、对话流、工作流和智能体团队',
  create: '创建应用',
  filters: {
    search: '搜索应用名称',
    type: '按类型筛选',
    allTypes: '全部类型',
  },
  modes: {
    agent: '智能体',
    chatflow: '对话流',
    workflow: '工作流',
    agent_team: '智能体团队',
  },
  modeHints: {
    agent: '由模型自主推理并调用工具完成任务',
    chatflow: '多轮对话，带记忆的编排流程',
    workflow: '单次运行的自动化流程',
    agent_team: '多个智能体分工协作、相互交接',
  },
  status: {
    active: '已启用',
    inactive: '已停用',
  },
  card: {
    updatedAt: '更新于 {{time}}',
    createdBy: '创建人 {{name}}',
    open: '打开 {{name}}',
    actionsFor: '{{name}} 的操作',
  },
  actions: {
    edit: '编辑信息',
    delete: '删除',
    activate: '启用',
    deactivate: '停用',
  },
  dialog: {
    createTitle: '创建应用',
    editTitle: '编辑应用信息',
    intro: '名称、描述、类型和图标均为必填项。',
    icon: '图标',
    name: '名称',
    namePlaceholder: '给应用起个名字',
    descriptionLabel: '描述',
    descriptionPlaceholder: '这个应用做什么、给谁用',
    type: '类型',
    typeFixed: '类型创建后不可更改',
    saveFailed: '保存失败',
  },
  done: {
    created: '应用已创建',
    updated: '应用已更新',
    deleted: '应用已删除',
    activated: '应用已启用',
    deactivated: '应用已停用',
  },
  confirmDelete: {
    title: '删除此应用？',
    description: '“{{name}}”及其草稿将被永久删除，无法恢复。',
    action: '删除',
  },
  empty: {
    title: '还没有应用',
    description: '创建第一个应用，开始编排你的 AI 流程',
  },
  noMatch: '没有匹配的应用',
  clearFilters: '清除筛选',
  loadFailed: '无法加载应用列表',
  retry: '重试',
  pager: {
    nav: '分页',
    total: '共 {{count}} 个',
    previous: '上一页',
    next: '下一页',
    page: '第 {{page}} 页',
    pageSize: '{{size}} 个/页',
    jump: '跳至',
  },
  editor: {
    back: '返回应用列表',
    header: '应用编辑器',
    saveStatus: {
      saved: '已保存',
      saving: '保存中…',
      failed: '保存失败',
      conflict: '草稿已被他人修改',
    },
    saveStatusLabel: '保存状态',
  },
  guard: {
    notFound: '应用不存在或已被删除',
  },
};

export default apps;
