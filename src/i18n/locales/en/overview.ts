import type zh from '../zh/overview';

const overview: typeof zh = {
  title: 'Overview',
  help: "Per day (time zone {{zone}}): the app's use in the portal, through the API, over MCP and as a tool; the editor's debug runs are left out.",
  loadFailed: 'Could not load the overview',
  retry: 'Retry',
  chartLabel: '{{title}}: {{total}} in all',
  empty: {
    title: 'Nothing ran in this period',
    chat: 'Once users chat with the app in the portal, an embedding web page or through the API, its conversations, messages, active users, tokens, latency and error rate appear here.',
    workflow: 'Once the workflow runs in the portal, through the API, over MCP or as a tool, its runs, active users, tokens, latency and error rate appear here.',
  },
  charts: {
    runs: { title: 'Runs', help: 'Runs a day' },
    conversations: { title: 'Conversations', help: 'Conversations started a day' },
    messages: { title: 'Messages', help: 'Messages users sent a day' },
    activeUsers: { title: 'Active users', help: 'Distinct end users who chatted or ran a day; the total counts each once over the period' },
    tokens: { title: 'Tokens', help: 'Tokens the model calls used a day' },
    latency: { title: 'Latency', help: 'Average and p95 time of a run from start to end' },
    errorRate: { title: 'Error rate', help: 'Failed runs out of all runs' },
  },
  series: {
    runs: 'Runs',
    conversations: 'Conversations',
    messages: 'Messages',
    active_users: 'Active users',
    tokens: 'Tokens',
    avg_latency_ms: 'Average',
    p95_latency_ms: 'p95',
    error_rate: 'Error rate',
  },
};

export default overview;
