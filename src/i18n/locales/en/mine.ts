import type zh from '../zh/mine';

const mine = {
  title: 'My space',
  description: 'What you created in your project spaces, what you submitted to the store, your approvals and your recent runs.',
  tabs: {
    created: 'Created by me ({{count}})',
    submissions: 'Store submissions ({{count}})',
    approvals: 'Approvals ({{count}})',
    runs: 'Recent runs ({{count}})',
  },
  kinds: { app: 'App', dataset: 'Knowledge base', prompt: 'Prompt', tool: 'Tool', plugin: 'Plugin' },
  fields: {
    name: 'Name',
    kind: 'Kind',
    space: 'Project space',
    updatedAt: 'Updated',
    state: 'Review state',
    reason: 'Reason',
    comment: 'Latest comment',
    submittedAt: 'Submitted',
    app: 'App',
    source: 'Source',
    status: 'Status',
    elapsed: 'Time',
    startedAt: 'Started',
  },
  created: { label: 'What I created', empty: 'You have not created anything in a project space yet' },
  approvals: { toApprove: 'Waiting for my decision', toApproveEmpty: 'Nothing waits for your decision', submitted: 'Submitted by me', submittedEmpty: 'You have submitted nothing for approval', open: 'Open approvals' },
  submissions: { label: 'My store submissions', empty: 'You have not submitted anything to the store' },
  runs: { label: 'My recent runs', empty: 'No runs yet' },
  states: { in_approval: 'In approval', awaiting_release: 'Awaiting release', released: 'Released', rejected: 'Rejected', offline: 'Offline' },
  sources: { draft: 'Debug', 'single-node': 'Single node', portal: 'Portal', api: 'API', tool: 'As a tool', mcp: 'MCP', published: 'Published' },
  runStatus: { running: 'Running', succeeded: 'Succeeded', failed: 'Failed', stopped: 'Stopped' },
} satisfies typeof zh;

export default mine;
