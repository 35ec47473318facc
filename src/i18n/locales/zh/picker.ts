/** The `picker` namespace: the person and organisation picker (src/kit/person-org-picker). */
const picker = {
  title: {
    user: '选择人员',
    org: '选择组织',
    both: '选择人员或组织',
  },
  search: {
    label: '搜索',
    user: '搜索人员或组织',
    org: '搜索组织',
    both: '搜索人员或组织',
    clear: '清除搜索',
  },
  tree: '组织架构',
  results: '搜索结果',
  groups: {
    orgs: '组织（{{count}}）',
    users: '人员（{{count}}）',
  },
  selectUser: '选择 {{name}}',
  selectOrg: '选择组织 {{name}}',
  selectOrgUsers: '选择 {{name}} 的全部人员',
  expand: '展开 {{name}}',
  collapse: '收起 {{name}}',
  peopleCount: '{{count}} 人',
  loadMore: '加载更多（还有 {{count}} 人）',
  loading: '加载中…',
  loadFailed: '加载失败',
  retry: '重试',
  noResults: '没有匹配的人员或组织',
  emptyTree: '暂无组织',
  already: '已添加',
  selected: {
    title: '已选（{{count}}）',
    list: '已选项',
    clear: '清空',
    remove: '移除 {{name}}',
    empty: '尚未选择',
    resolving: '正在读取已选项…',
  },
  trigger: {
    placeholder: '请选择',
    choose: '选择',
    more: '还有 {{count}} 项',
  },
  confirm: '确定',
  cancel: '取消',
  hint: '↑↓ 移动，→ 展开，← 收起，空格勾选',
};

export default picker;
