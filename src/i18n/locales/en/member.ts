import type zh from '../zh/member';

const member: typeof zh = {
  title: 'Member management',
  description: 'Manage who belongs to this project space and what they can do',
  breadcrumb: {
    label: 'Breadcrumb',
    workspaces: 'Project spaces',
  },
  columns: {
    name: 'Name',
    serialNumber: 'Serial number',
    account: 'Account',
    role: 'Role',
    nickName: 'Nick name',
    addedAt: 'Added',
    actions: 'Actions',
  },
  roles: {
    owner: 'Owner',
    admin: 'Admin',
    ordinary_member: 'Ordinary member',
  },
  filters: {
    search: 'Search name, account or nick name',
    role: 'Filter by role',
    allRoles: 'All roles',
  },
  you: 'You',
  yourRole: 'Your role: {{role}}',
  actions: {
    add: 'Add member',
    exit: 'Exit project space',
    transfer: 'Transfer ownership',
    remove: 'Remove',
    roleOf: 'Role of {{name}}',
    transferTo: 'Transfer ownership to {{name}}',
    removeNamed: 'Remove {{name}}',
  },
  add: {
    title: 'Add members',
    role: 'Role',
    confirm: 'Add',
    done: 'Members added: {{count}}',
    adminOwnerOnly: 'Only the owner can add members as admins',
  },
  confirmRemove: {
    title: 'Remove this member?',
    description: '{{name}} will lose access to this project space.',
    action: 'Remove',
  },
  confirmTransfer: {
    title: 'Transfer ownership?',
    description: '{{name}} becomes the owner of this project space and you become an admin. You cannot undo this yourself.',
    action: 'Transfer',
  },
  confirmExit: {
    title: 'Exit this project space?',
    description: 'You will lose access to “{{name}}” until someone adds you again.',
    action: 'Exit',
  },
  ownerCannotExit: 'The owner must transfer ownership before leaving',
  done: {
    role: 'Role updated',
    removed: 'Member removed',
    transferred: 'Ownership transferred',
    exited: 'You left the project space',
  },
  empty: 'No members yet',
  noMatch: 'No matching members',
  clearFilters: 'Clear filters',
  loadFailed: 'Could not load the members',
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
};

export default member;
