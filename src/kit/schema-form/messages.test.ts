import { describe, expect, it } from 'vitest';
import { registerMessageKeys, textToMessage } from './messages';

describe('textToMessage', () => {
  it('maps the spec 5 sentences to kit keys', () => {
    expect(textToMessage('This form field is required!')).toEqual({ key: 'kit:validation.required' });
    expect(textToMessage('exceeds maximum length 50')).toEqual({ key: 'kit:validation.maxLength', params: { max: 50 } });
  });

  it('keeps other sentences as text until a screen registers a key for them', () => {
    expect(textToMessage('The SID is required for Oracle (test)')).toEqual({ text: 'The SID is required for Oracle (test)' });
    registerMessageKeys({ 'The SID is required for Oracle (test)': 'database:messages.sidRequired' });
    expect(textToMessage('The SID is required for Oracle (test)')).toEqual({ key: 'database:messages.sidRequired', text: 'The SID is required for Oracle (test)' });
  });
});
