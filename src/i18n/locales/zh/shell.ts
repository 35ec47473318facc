/** The `shell` namespace: top bar, switchers, user menu, navigation, shared validation messages. */
const shell = {
  home: '返回控制台首页',
  notifications: '通知',
  breadcrumb: '面包屑导航',
  language: {
    label: '语言',
  },
  platform: {
    label: '切换平台',
    console: '控制台',
    portal: '门户',
    system: '系统管理',
  },
  workspace: {
    label: '项目空间',
    choose: '选择项目空间',
    search: '搜索项目空间',
    none: '还没有项目空间',
    all: '全部项目空间',
  },
  user: {
    menu: '用户菜单：{{name}}',
    personalCenter: '个人中心',
    changePassword: '修改密码',
    lightTheme: '浅色主题',
    darkTheme: '深色主题',
    signOut: '退出登录',
    signIn: '登录',
  },
  role: {
    super_admin: '超级管理员',
    tenant_admin: '租户管理员',
    user: '普通用户',
  },
  projectTabs: {
    label: '项目空间导航',
    app: '应用',
    tool: '工具',
    knowledge: '知识库',
    database: '数据库',
    certificate: '凭证管理',
    prompt: '提示词管理',
    member: '成员管理',
  },
  system: {
    nav: '系统管理导航',
    model: '模型管理',
    store: '商店管理',
    plugin: '插件管理',
    dataset: '知识任务管理',
    tool: '工具管理',
    user: '用户管理',
    role: '角色管理',
    tenant: '租户管理',
    security: '安全',
    resource: '系统资源',
  },
  store: {
    nav: '商店分类',
    app: '应用',
    knowledge: '知识库',
    prompt: '提示词',
    tool: '工具',
    plugin: '插件',
  },
  validation: {
    required: '此项为必填项！',
    maxLength: '长度不能超过 {{max}} 个字符',
  },
};

export default shell;
