import type zh from '../zh/credential';

const credential: typeof zh = {
  title: 'Credential',
  identifier: 'Identifier',
  identifierPlaceholder: 'The name tools use to pick this credential',
  ak: 'AK',
  akPlaceholder: 'Access key',
  sk: 'SK',
  skPlaceholder: 'Secret key',
  credId: 'ID',
  credIdPlaceholder: 'Account or application id (optional)',
  description: 'Description',
  common: { createdAt: 'Created', updatedAt: 'Updated' },
  page: {
    title: 'Credential management',
    description: 'Keys for calling outside services; the SK is stored encrypted and shown masked',
  },
  search: 'Search identifiers',
  actions: { add: 'New credential', edit: 'Edit', delete: 'Delete', reveal: 'Show SK', hide: 'Hide SK' },
  dialog: { create: 'New credential', edit: 'Edit credential' },
  confirmDelete: { title: 'Delete this credential?', description: 'Tools using “{{name}}” can no longer call their service. This cannot be undone.' },
  done: { created: 'Credential created', updated: 'Credential saved', deleted: 'Credential deleted' },
  empty: 'No credentials yet',
  noMatch: 'No matching credentials',
  revealFailed: 'Could not fetch the SK',
};
export default credential;
