import type zh from '../zh/apps';

const apps: typeof zh = {
  title: 'Applications',
  description: 'Build agents, chatflows, workflows and agent teams in this project space',
  create: 'Create app',
  importApp: {
    button: 'Create from file',
    title: 'Create an app from a file',
    hint: 'A Dify DSL file (workflow or chatflow) or a flow exported here. The app takes the file’s name and type; nodes that cannot be mapped are listed.',
    pick: 'Choose a YAML file…',
    busy: 'Importing…',
    failed: 'The file cannot be imported:',
    created: 'Created “{{name}}”:',
    open: 'Open in the editor',
    close: 'Close',
  },
  filters: {
    search: 'Search app name',
    type: 'Filter by type',
    allTypes: 'All types',
  },
  modes: {
    agent: 'Agent',
    chatflow: 'Chatflow',
    workflow: 'Workflow',
    agent_team: 'Agent team',
  },
  modeHints: {
    agent: 'A model that reasons and calls tools on its own',
    chatflow: 'A multi-turn conversation flow with memory',
    workflow: 'An automation that runs once per input',
    agent_team: 'Several agents that share the work and hand off',
  },
  status: {
    active: 'Active',
    inactive: 'Inactive',
  },
  card: {
    updatedAt: 'Updated {{time}}',
    createdBy: 'By {{name}}',
    open: 'Open {{name}}',
    actionsFor: 'Actions for {{name}}',
  },
  actions: {
    edit: 'Edit info',
    delete: 'Delete',
    activate: 'Activate',
    deactivate: 'Deactivate',
  },
  dialog: {
    createTitle: 'Create app',
    editTitle: 'Edit app info',
    intro: 'Name, description, type and icon are all required.',
    icon: 'Icon',
    name: 'Name',
    namePlaceholder: 'Give the app a name',
    descriptionLabel: 'Description',
    descriptionPlaceholder: 'What the app does and for whom',
    type: 'Type',
    typeFixed: 'The type cannot change after creation',
    saveFailed: 'Save failed',
  },
  done: {
    created: 'App created',
    updated: 'App updated',
    deleted: 'App deleted',
    activated: 'App activated',
    deactivated: 'App deactivated',
  },
  confirmDelete: {
    title: 'Delete this app?',
    description: '"{{name}}" and its draft will be deleted for good.',
    action: 'Delete',
  },
  empty: {
    title: 'No apps yet',
    description: 'Create the first app to start building your AI flow',
  },
  noMatch: 'No matching apps',
  clearFilters: 'Clear filters',
  loadFailed: 'Could not load the apps',
  retry: 'Retry',
  pager: {
    nav: 'Pagination',
    total: '{{count}} in total',
    previous: 'Previous page',
    next: 'Next page',
    page: 'Page {{page}}',
    pageSize: '{{size}} / page',
    jump: 'Go to',
  },
  editor: {
    back: 'Back to apps',
    header: 'App editor',
    saveStatus: {
      saved: 'Saved',
      saving: 'Saving…',
      failed: 'Save failed',
      conflict: 'Changed elsewhere',
    },
    saveStatusLabel: 'Save status',
  },
  guard: {
    notFound: 'The app does not exist or has been deleted',
  },
};

export default apps;
