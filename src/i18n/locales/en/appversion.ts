import type zh from '../zh/appversion';

const appversion: typeof zh = {
  title: 'Versions',
  help: 'Publishing freezes the current draft as a version; a workflow offered as a tool runs its latest published version.',
  empty: 'No version published yet',
  draftLine: 'Draft: revision {{revision}}, saved by {{name}} at {{time}}',
  latest: 'Latest',
  managersOnly: 'Only owners and admins publish and delete versions',
  fields: {
    version: 'Version',
    description: 'Description',
    createdBy: 'Published by',
    createdAt: 'Published at',
    draftRevision: 'Draft revision',
  },
  versionHelp: 'The suggested next version; change it if you like (at most 50 characters, unique in this app)',
  required: 'The version number cannot be empty',
  taken: 'This app already has a version {{version}}: choose another version number',
  invalidTitle: 'The draft cannot run yet, so it cannot be published. Fix these problems first:',
  actions: {
    publish: 'Publish',
    restore: 'Restore to draft',
    delete: 'Delete',
    cancel: 'Cancel',
    openCanvas: 'Open the canvas',
    overwrite: 'Overwrite anyway',
  },
  publishTitle: 'Publish a new version',
  confirmDelete: {
    title: 'Delete version {{version}}?',
    description: 'This cannot be undone. Tools that use this app will run the newest remaining version.',
  },
  confirmRestore: {
    title: 'Restore version {{version}} to the draft?',
    description: "The draft's content is replaced by this version (saved as a new revision; you can restore another version later).",
  },
  conflict: {
    title: 'Someone else changed the draft',
    description: '{{name}} saved the draft at {{time}} (revision {{revision}}) after you opened this page. Restore {{version}} over it anyway?',
  },
  done: {
    published: 'Version {{version}} published',
    deleted: 'Version {{version}} deleted',
    restored: 'Version {{version}} restored to the draft (revision {{revision}})',
  },
  someone: 'someone',
};

export default appversion;
