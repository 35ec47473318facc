/**
 * The `common` namespace: words every screen shares. Chinese is the source of the keys: the English file
 * is typed by this one, so a key missing there is a type error.
 */
const common = {
  appName: 'Weft',
  actions: {
    ok: '确定',
    cancel: '取消',
    confirm: '确认',
    save: '保存',
    create: '创建',
    add: '添加',
    edit: '编辑',
    delete: '删除',
    remove: '移除',
    search: '搜索',
    reset: '重置',
    back: '返回',
    close: '关闭',
    retry: '重试',
    refresh: '刷新',
    reload: '重新加载',
    submit: '提交',
    copy: '复制',
    more: '更多',
    logout: '退出登录',
  },
  states: {
    loading: '加载中…',
    saving: '保存中…',
    empty: '暂无数据',
    noResults: '没有匹配的结果',
    success: '操作成功',
    saved: '保存成功',
    deleted: '删除成功',
  },
  language: {
    label: '语言',
    zh: '中文',
    en: 'English',
  },
  startup: {
    configFailed: '无法加载应用配置，请检查网络或稍后重试。',
  },
  /** 首次启动时创建的名称（种子数据以英文保存，按界面语言显示）。 */
  seeded: {
    workspace: '默认项目空间',
    workspaceDescription: '首次启动时创建',
    tenant: '默认租户',
    admin: '管理员',
  },
  /** 未配置对话模型时的 AI 功能（issue 28）：缺什么、去哪里配置。 */
  noModel: {
    missing: '未配置对话模型。',
    goTo: '请在此添加模型供应商：',
    link: '系统 › 模型',
    ask: '请联系管理员添加模型供应商。',
  },
};

export default common;
