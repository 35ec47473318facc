import type zh from '../zh/runlog';

const runlog: typeof zh = {
  title: 'Logs',
  tabs: { runs: 'Runs', conversations: 'Conversations' },
  period: {
    label: 'Period',
    today: 'Today',
    '7d': 'Past 7 days',
    '30d': 'Past 30 days',
    '90d': 'Past 90 days',
    '180d': 'Past six months',
    all: 'All time',
  },
  search: 'Search inputs or replies',
  statusFilter: 'Status',
  anyStatus: 'Any status',
  empty: 'No runs in this period',
  emptyConversations: 'No conversations in this period',
  open: 'View',
  remove: 'Delete',
  run: {
    id: 'Run ID',
    status: 'Status',
    query: 'Input',
    answer: 'Reply',
    elapsed: 'Duration',
    tokens: 'Tokens',
    createdAt: 'Started',
    source: 'Run by',
  },
  conversation: {
    name: 'Conversation',
    messages: 'Messages',
    updatedAt: 'Last update',
    createdAt: 'Started',
  },
  detail: {
    runTitle: 'Run details',
    conversationTitle: 'Conversation',
    loading: 'Loading…',
    failed: 'Could not load it',
    retry: 'Retry',
    noMessages: 'No messages',
  },
  confirmDelete: {
    title: 'Delete the conversation?',
    description: 'Its messages and conversation variables are deleted for good.',
  },
  deleted: 'Conversation deleted',
};
export default runlog;
