import type zh from '../zh/shell';

const shell: typeof zh = {
  home: 'Go to the console home',
  notifications: 'Notifications',
  breadcrumb: 'Breadcrumb',
  language: {
    label: 'Language',
  },
  platform: {
    label: 'Switch platform',
    console: 'Console',
    portal: 'Portal',
    system: 'System admin',
  },
  workspace: {
    label: 'Project space',
    choose: 'Choose a project space',
    search: 'Search project spaces',
    none: 'No project spaces yet',
    all: 'All project spaces',
  },
  user: {
    menu: 'User menu: {{name}}',
    personalCenter: 'Personal center',
    changePassword: 'Change password',
    lightTheme: 'Light theme',
    darkTheme: 'Dark theme',
    signOut: 'Sign out',
    signIn: 'Sign in',
  },
  role: {
    super_admin: 'Super admin',
    tenant_admin: 'Tenant admin',
    user: 'User',
  },
  projectTabs: {
    label: 'Project space navigation',
    app: 'Application',
    tool: 'Tools',
    knowledge: 'Knowledge Base',
    database: 'Database',
    certificate: 'Credential Management',
    prompt: 'Prompt Management',
    character: 'Characters',
    member: 'Member Management',
  },
  system: {
    nav: 'System admin navigation',
    model: 'Models',
    store: 'Store management',
    plugin: 'Plugins',
    dataset: 'Dataset tasks',
    tool: 'Tools',
    user: 'Users',
    role: 'Roles',
    tenant: 'Tenants',
    security: 'Security',
    approval: 'Approval',
    resource: 'System resources',
  },
  approvals: { bell: 'Approval notifications', count: 'Approvals: {{toApprove}} to approve, {{decided}} new decisions' },
  store: {
    nav: 'Store sections',
    app: 'Apps',
    knowledge: 'Knowledge bases',
    prompt: 'Prompts',
    tool: 'Tools',
    plugin: 'Plugins',
  },
  validation: {
    required: 'This form field is required!',
    maxLength: 'Exceeds maximum length {{max}}',
  },
};

export default shell;
