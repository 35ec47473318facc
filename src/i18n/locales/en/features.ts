import type zh from '../zh/features';

const features: typeof zh = {
  title: 'Features',
  open: 'Features',
  openHint: 'Opening statement, suggested questions, file upload, citations and feedback',
  hint: 'What users get when they use this app in the portal and through the API. Saving can be undone and is autosaved with the draft.',
  groups: {
    opening: 'Opening',
    openingHelp: 'What users see when a conversation starts',
    conversation: 'Conversation',
  },
  fields: {
    openingStatement: 'Opening statement',
    suggestedQuestions: 'Suggested questions',
    randomCount: 'Questions shown at random',
    followUp: 'Follow-up suggestions',
    citations: 'Citations and attributions',
    feedback: 'Likes and dislikes',
    fileUpload: 'File upload',
    uploadEnabled: 'Let users upload files',
    uploadTypes: 'File kinds',
    uploadMaxCount: 'Files at most',
    imageDetail: 'Image detail',
  },
  placeholders: {
    openingStatement: 'For example: Hello! I can look up your orders and explain the return policy.',
    question: 'Type a suggested question',
  },
  help: {
    openingStatement: 'What the app says first when a conversation starts.',
    suggestedQuestions: 'Shown under the opening statement; a click asks it.',
    randomCount: 'How many suggested questions are shown, picked at random each time; 0 shows them all. It cannot exceed the number of questions.',
    followUp: 'After each answer, the model suggests up to three follow-up questions.',
    citations: 'Show the knowledge passages an answer used.',
    feedback: 'Users can like or dislike answers; it is stored with the message.',
    uploadEnabled: 'Users can attach files or images in the conversation.',
    uploadMaxCount: 'How many files one message may carry.',
    imageDetail: 'Low: 512×512, about 65 tokens; high: adds detail crops, about 129 tokens.',
  },
  fileKinds: { image: 'Images', document: 'Documents', audio: 'Audio', video: 'Video' },
  imageDetail: { low: 'Low', high: 'High' },
  questions: {
    add: 'Add a question',
    remove: 'Remove question {{n}}',
    count: '{{count}} / {{max}}',
    empty: 'No suggested questions yet',
  },
  errors: {
    countAboveQuestions: 'The number shown cannot exceed the number of suggested questions',
  },
  cancel: 'Cancel',
  save: 'Save',
  close: 'Close',
  saved: 'Features updated',
};
export default features;
