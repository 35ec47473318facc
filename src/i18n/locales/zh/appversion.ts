/** The app editor's version tab (published versions of an app: publish, delete, restore into the draft). */
export default {
  title: '版本',
  help: '发布会把当前草稿冻结为一个版本；作为工具使用的工作流运行最新发布的版本。',
  empty: '还没有发布过版本',
  draftLine: '草稿：第 {{revision}} 次修订，{{name}} 保存于 {{time}}',
  latest: '最新',
  managersOnly: '只有所有者和管理员可以发布和删除版本',
  fields: {
    version: '版本号',
    description: '版本描述',
    createdBy: '发布人',
    createdAt: '发布时间',
    draftRevision: '草稿修订',
  },
  versionHelp: '建议的下一个版本号，可修改（最多 50 个字符，同一应用内不可重复）',
  required: '版本号不能为空',
  taken: '此应用已有版本 {{version}}，请换一个版本号',
  invalidTitle: '草稿还不能运行，暂时不能发布。请先修正以下问题：',
  actions: {
    publish: '发布',
    restore: '恢复到草稿',
    delete: '删除',
    cancel: '取消',
    openCanvas: '打开画布',
    overwrite: '仍然覆盖',
  },
  publishTitle: '发布新版本',
  confirmDelete: {
    title: '删除版本 {{version}}？',
    description: '删除后不可恢复。使用此应用的工具将运行剩下的最新版本。',
  },
  confirmRestore: {
    title: '把版本 {{version}} 恢复到草稿？',
    description: '草稿的内容会被此版本替换（作为新的修订保存，可以再次恢复其它版本）。',
  },
  conflict: {
    title: '草稿已被他人修改',
    description: '{{name}} 在 {{time}} 保存了草稿（第 {{revision}} 次修订），晚于你打开此页面时的版本。仍然用 {{version}} 覆盖吗？',
  },
  done: {
    published: '已发布版本 {{version}}',
    deleted: '已删除版本 {{version}}',
    restored: '已把版本 {{version}} 恢复到草稿（第 {{revision}} 次修订）',
  },
  someone: '某人',
};
