import type zh from '../zh/picker';

const picker: typeof zh = {
  title: {
    user: 'Select people',
    org: 'Select organisations',
    both: 'Select people or organisations',
  },
  search: {
    label: 'Search',
    user: 'Search people or organisations',
    org: 'Search organisations',
    both: 'Search people or organisations',
    clear: 'Clear search',
  },
  tree: 'Organisation tree',
  results: 'Search results',
  groups: {
    orgs: 'Organisations ({{count}})',
    users: 'People ({{count}})',
  },
  selectUser: 'Select {{name}}',
  selectOrg: 'Select organisation {{name}}',
  selectOrgUsers: 'Select everyone in {{name}}',
  expand: 'Expand {{name}}',
  collapse: 'Collapse {{name}}',
  peopleCount: '{{count}} people',
  loadMore: 'Load more ({{count}} left)',
  loading: 'Loading…',
  loadFailed: 'Could not load',
  retry: 'Retry',
  noResults: 'No matching people or organisations',
  emptyTree: 'No organisations yet',
  already: 'Added',
  selected: {
    title: 'Selected ({{count}})',
    list: 'Selected items',
    clear: 'Clear',
    remove: 'Remove {{name}}',
    empty: 'Nothing selected yet',
    resolving: 'Reading the selection…',
  },
  trigger: {
    placeholder: 'Choose…',
    choose: 'Choose',
    more: '{{count}} more',
  },
  confirm: 'OK',
  cancel: 'Cancel',
  hint: '↑↓ move, → expand, ← collapse, Space checks',
};

export default picker;
