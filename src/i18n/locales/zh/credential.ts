/** 凭证管理（spec 2 certificate）。字段键与 schemas/credential.ts 的元数据一致（credential.<key>）。 */
const credential = {
  title: '凭证',
  identifier: '标识',
  identifierPlaceholder: '用于在工具中选择此凭证的名称',
  ak: 'AK',
  akPlaceholder: 'Access Key',
  sk: 'SK',
  skPlaceholder: 'Secret Key',
  credId: 'ID',
  credIdPlaceholder: '账号或应用 ID（可选）',
  description: '描述',
  common: { createdAt: '创建时间', updatedAt: '更新时间' },
  page: {
    title: '凭证管理',
    description: '保存调用外部服务所需的 AK/SK；SK 加密存储，列表中仅显示掩码',
  },
  search: '搜索标识',
  actions: { add: '新建凭证', edit: '编辑', delete: '删除', reveal: '显示 SK', hide: '隐藏 SK' },
  dialog: { create: '新建凭证', edit: '编辑凭证' },
  confirmDelete: { title: '删除此凭证？', description: '使用“{{name}}”的工具将无法再调用外部服务。此操作无法撤销。' },
  done: { created: '凭证已创建', updated: '凭证已保存', deleted: '凭证已删除' },
  empty: '还没有凭证',
  noMatch: '没有匹配的凭证',
  revealFailed: '无法获取 SK',
};
export default credential;
