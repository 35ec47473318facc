/** The `member` namespace: the member management screen (src/app/workspace/members). */
const member = {
  title: '成员管理',
  description: '管理项目空间的成员及其角色',
  breadcrumb: {
    label: '面包屑',
    workspaces: '项目空间',
  },
  columns: {
    name: '姓名',
    serialNumber: '工号',
    account: '账号',
    role: '角色',
    nickName: '昵称',
    addedAt: '添加时间',
    actions: '操作',
  },
  roles: {
    owner: '所有者',
    admin: '管理员',
    ordinary_member: '普通成员',
  },
  filters: {
    search: '搜索姓名、账号或昵称',
    role: '按角色筛选',
    allRoles: '全部角色',
  },
  you: '我',
  yourRole: '我的角色：{{role}}',
  actions: {
    add: '添加成员',
    exit: '退出项目空间',
    transfer: '转让所有权',
    remove: '移除',
    roleOf: '{{name}} 的角色',
    transferTo: '将所有权转让给 {{name}}',
    removeNamed: '移除 {{name}}',
  },
  add: {
    title: '添加成员',
    role: '角色',
    confirm: '添加',
    done: '已添加成员：{{count}} 人',
    adminOwnerOnly: '仅所有者可以将成员添加为管理员',
  },
  confirmRemove: {
    title: '移除成员？',
    description: '{{name}} 将无法再访问该项目空间。',
    action: '移除',
  },
  confirmTransfer: {
    title: '转让所有权？',
    description: '{{name}} 将成为该项目空间的所有者，你将成为管理员。此操作无法由你撤回。',
    action: '转让',
  },
  confirmExit: {
    title: '退出项目空间？',
    description: '退出后你将无法访问「{{name}}」，除非被再次添加。',
    action: '退出',
  },
  ownerCannotExit: '所有者需先转让所有权才能退出',
  done: {
    role: '角色已更新',
    removed: '成员已移除',
    transferred: '所有权已转让',
    exited: '你已退出项目空间',
  },
  empty: '暂无成员',
  noMatch: '没有匹配的成员',
  clearFilters: '清除筛选',
  loadFailed: '成员加载失败',
  retry: '重试',
  pager: {
    nav: '分页',
    total: '共 {{count}} 条',
    previous: '上一页',
    next: '下一页',
    page: '第 {{page}} 页',
    pageSize: '{{size}} 条/页',
    jump: '前往',
  },
};

export default member;
