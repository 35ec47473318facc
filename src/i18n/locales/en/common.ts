import type zh from '../zh/common';

const common: typeof zh = {
  appName: 'Weft',
  actions: {
    ok: 'OK',
    cancel: 'Cancel',
    confirm: 'Confirm',
    save: 'Save',
    create: 'Create',
    add: 'Add',
    edit: 'Edit',
    delete: 'Delete',
    remove: 'Remove',
    search: 'Search',
    reset: 'Reset',
    back: 'Back',
    close: 'Close',
    retry: 'Retry',
    refresh: 'Refresh',
    reload: 'Reload',
    submit: 'Submit',
    copy: 'Copy',
    more: 'More',
    logout: 'Log out',
  },
  states: {
    loading: 'Loading…',
    saving: 'Saving…',
    empty: 'No data',
    noResults: 'No matching results',
    success: 'Done',
    saved: 'Saved',
    deleted: 'Deleted',
  },
  language: {
    label: 'Language',
    zh: '中文',
    en: 'English',
  },
  startup: {
    configFailed: 'The app configuration could not be loaded. Check the network or try again later.',
  },
  /** The names the first start gives (stored in English by the seed; shown in the user's language). */
  seeded: {
    workspace: 'Default project space',
    workspaceDescription: 'Created on first start',
    tenant: 'Default tenant',
    admin: 'Administrator',
  },
  /** An AI feature with no chat model configured (issue 28): what is missing, and where to add one. */
  noModel: {
    missing: 'No chat model is configured.',
    goTo: 'Add a model provider in',
    link: 'System › Models',
    ask: 'Please ask an administrator to add a model provider.',
  },
};

export default common;
