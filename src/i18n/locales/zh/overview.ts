/** The app editor's overview tab (issue 22): usage per day over a log period. */
const overview = {
  title: '概览',
  help: '按天统计（时区 {{zone}}）：应用在门户、API、MCP 和作为工具时的使用情况，不含编辑器中的调试运行。',
  loadFailed: '无法加载概览数据',
  retry: '重试',
  chartLabel: '{{title}}：合计 {{total}}',
  empty: {
    title: '这段时间还没有运行',
    chat: '用户在门户、嵌入的网页或通过 API 与应用对话后，这里会显示会话、消息、活跃用户、Token 用量、耗时和错误率。',
    workflow: '工作流在门户、通过 API、MCP 或作为工具运行后，这里会显示运行次数、活跃用户、Token 用量、耗时和错误率。',
  },
  charts: {
    runs: { title: '运行次数', help: '每天的运行次数' },
    conversations: { title: '会话数', help: '每天新开始的会话' },
    messages: { title: '消息数', help: '每天用户发送的消息' },
    activeUsers: { title: '活跃用户', help: '每天有对话或运行的不同终端用户；合计按整个时间段去重' },
    tokens: { title: 'Token 用量', help: '每天模型调用消耗的 Token' },
    latency: { title: '响应耗时', help: '每次运行从开始到结束的平均耗时和 P95' },
    errorRate: { title: '错误率', help: '失败的运行占全部运行的比例' },
  },
  series: {
    runs: '运行',
    conversations: '会话',
    messages: '消息',
    active_users: '活跃用户',
    tokens: 'Token',
    avg_latency_ms: '平均',
    p95_latency_ms: 'P95',
    error_rate: '错误率',
  },
};

export default overview;
